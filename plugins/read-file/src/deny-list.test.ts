import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DENY } from './deny-list.js';
import { createPathPolicy } from './path-policy.js';
import { expectFailure, expectSuccess, makeTestTree, read, registryFor, type TestTree } from './test-tree.fixture.js';

const SENSITIVE = [
  '.env',
  '.env.local',
  '.env.production',
  'app/.env',
  '.ENV',
  '.Env.Local',
  '.envrc',
  'id_rsa',
  'id_rsa.pub',
  '.ssh/id_ed25519',
  'keys/id_dsa',
  'deploy/id_ecdsa',
  'ID_ED25519',
  'server.pem',
  'tls/server.key',
  'cert.p12',
  'cert.PFX',
  'release.jks',
  'android.keystore',
  '.ssh/config',
  '.ssh/known_hosts',
  '.gnupg/pubring.kbx',
  '.aws/config',
  '.aws/credentials',
  '.git/config',
  '.git/HEAD',
  'vendor/lib/.git/config',
  '.npmrc',
  'packages/a/.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.git-credentials',
  '.htpasswd',
  '.vault-token',
  'credentials',
  'credentials.json',
  'config/credentials.yml.enc',
  '.docker/config.json',
  'home/.docker/config.json',
  'terraform.tfstate',
  'terraform.tfstate.backup',
  '.env-local',
  '.env_production',
  'app/.env-staging',
  '.ENV_LOCAL',
  'putty.ppk',
  'keys/deploy.PPK',
  'private.asc',
  'release-key.asc',
  'terraform.tfvars',
  'prod.auto.tfvars',
  'infra/terraform.tfvars.json',
  'secrets.json',
  'SECRETS.JSON',
  'config/secrets.yml',
  'secrets.yaml',
  'secrets.toml',
  '.kube/config',
  'home/.kube/config',
  'kubeconfig',
  'prod.kubeconfig',
  'kubeconfig.yaml',
  '.s3cfg',
  '.boto',
  '.config/gcloud/credentials.db',
  '.config/gcloud/legacy_credentials/me@example.com/adc.json',
  '.azure/msal_token_cache.json',
  'application_default_credentials.json',
  'service-account.json',
  'service-account-key.json',
  'gcp/prod-key.json',
  'deploy/sa-key.json',
  '.dockercfg',
  '.terraformrc',
  'terraform.rc',
  '.config/gh/hosts.yml',
];

// Backups and copies of denied names, in every form the README's rule names.
const COPIES = [
  '.env~',
  '#.env#',
  '.#.env',
  '..env.swp',
  '.npmrc.swo',
  '.npmrc~',
  'server.pem.bak',
  'server.pem.orig',
  'server.pem.1',
  'server.pem.~2~',
  'config/.npmrc.old',
  'credentials~',
  'secrets.json.save',
  'secrets.yml.tmp',
  '.pgpass.backup',
  '.kube/config.bak',
  '.kube/#config#',
  'service-account.json~',
  'secrets (copy).json',
  'secrets (2).json',
  'secrets copy.json',
  'credentials - Copy',
  'Copy of .npmrc',
  '.netrc (another copy)',
  '.ssh.bak/config',
  '.git.old/config',
  '.npmrc.bak~',
];

const ORDINARY = [
  'README.md',
  'src/env.ts',
  'src/environment.ts',
  'docs/env.md',
  'keyboard.ts',
  'src/keys.ts',
  'monkey.txt',
  'pem-notes.md',
  'src/credentials-form.tsx',
  '.gitignore',
  '.github/workflows/ci.yml',
  '.gitattributes',
  'docker/config.json',
  'src/ssh.ts',
  'npmrc.md',
  'tfstate.md',
  // Look-alikes of the names above that must stay readable
  '.environment',
  'src/env-local.ts',
  'env_production.md',
  '.envrc.example',
  'docs/ppk.md',
  'ascii.txt',
  'notes.ascii',
  'src/asc-sort.ts',
  'terraform.tfvars.example',
  'variables.tf',
  'main.tf',
  'tfvars.md',
  'src/secrets.ts',
  'docs/secrets.md',
  'secrets.example.json',
  'secrets-schema.json',
  'src/secrets/index.ts',
  // Look-alikes of the credential names and of backups
  'docs/kube-config.md',
  'kube/config',
  'src/kubeconfig.ts',
  's3cfg.md',
  'src/boto.py',
  'service-account.md',
  'docs/service-accounts.json.md',
  'src/keys.json',
  'monkey.json',
  'gcloud/config.md',
  'README.md~',
  'src/index.ts.bak',
  '#notes#',
  'notes (copy).txt',
  'app.log.1',
  'Copy of README.md',
  '.environment~',
  'env.bak',
];

describe('the built-in deny list', () => {
  const policy = createPathPolicy([], undefined);

  it.each(SENSITIVE)('refuses %s', (name) => {
    expect(policy(name)).toBe('it is on the deny list of secret and private files');
  });

  it.each(COPIES)('refuses %s, a backup or copy of a denied name', (name) => {
    expect(policy(name)).toBe('it is a backup or copy of a name on the deny list of secret and private files');
  });

  it('lets a "!" pattern re-allow a name, and so its backups', () => {
    const reallowed = createPathPolicy(['!secrets.json'], undefined);
    expect(reallowed('secrets.json~')).toBeUndefined();
    expect(reallowed('secrets.yml~')).toBeDefined();
  });

  it.each(ORDINARY)('allows %s', (name) => {
    expect(policy(name)).toBeUndefined();
  });

  it('is documented entry by entry in the README', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    for (const pattern of DEFAULT_DENY) expect(readme).toContain(`\`${pattern}\``);
  });
});

describe('the names found readable before the deny list was extended', () => {
  let tree: TestTree;
  const refused = [
    '.env-local',
    '.env_production',
    'putty.ppk',
    'keys/signing.asc',
    'terraform.tfvars',
    'secrets.json',
    // Returned whole before the backup rule and the credential names (issue #31)
    '.env~',
    '#.env#',
    'certs/server.pem.bak',
    '.npmrc~',
    '.kube/config',
    '.s3cfg',
    '.boto',
    'service-account.json',
    'gcp/prod-key.json',
  ];
  const readable = [
    'terraform.tfvars.example',
    'src/secrets.ts',
    'docs/secrets.md',
    'src/environment.ts',
    'docs/kube-config.md',
    'service-account.md',
    'README.md~',
  ];
  beforeAll(async () => {
    tree = await makeTestTree();
    for (const name of [...refused, ...readable]) {
      await mkdir(path.dirname(path.join(tree.root, name)), { recursive: true });
      await writeFile(path.join(tree.root, name), refused.includes(name) ? 'TOKEN-SECRET\n' : 'ordinary\n');
    }
  });
  afterAll(() => tree.cleanup());

  it.each(refused)('refuses to read %s, with nothing of it in the outcome', async (name) => {
    const outcome = await read(registryFor({ root: tree.root }), { path: name });
    expect(expectFailure(outcome, 'denied').error.message).toContain('deny list');
    expect(JSON.stringify(outcome)).not.toContain('TOKEN-SECRET');
  });

  it.each(readable)('reads the look-alike %s', async (name) => {
    expect(expectSuccess(await read(registryFor({ root: tree.root }), { path: name })).output.text).toBe('ordinary');
  });
});

describe('deny and allow options', () => {
  let tree: TestTree;
  beforeAll(async () => {
    tree = await makeTestTree();
  });
  afterAll(() => tree.cleanup());

  it('adds deny patterns to the built-in list', async () => {
    const registry = registryFor({ root: tree.root, deny: ['sub/deep/', '*.md'] });
    expectFailure(await read(registry, { path: 'sub/deep/file.txt' }), 'denied');
    expectFailure(await read(registry, { path: 'README.MD' }), 'denied');
    expectFailure(await read(registry, { path: 'readme-link' }), 'denied');
    expectFailure(await read(registry, { path: '.env' }), 'denied');
    expectSuccess(await read(registry, { path: 'src/index.ts' }));
  });

  it('lets a "!" pattern re-allow a name of the built-in list, and nothing more', async () => {
    const registry = registryFor({ root: tree.root, deny: ['!.env.example'] });
    expect(expectSuccess(await read(registry, { path: '.env.example' })).output.text).toBe('API_KEY=');
    expectFailure(await read(registry, { path: '.env' }), 'denied');
    expectFailure(await read(registry, { path: 'config/.env.production' }), 'denied');
  });

  it('reads only allowed paths when allow is given, and still refuses secrets among them', async () => {
    const registry = registryFor({ root: tree.root, allow: ['src/', '.env*'] });
    expectSuccess(await read(registry, { path: 'src/index.ts' }));
    const refused = expectFailure(await read(registry, { path: 'README.md' }), 'denied');
    expect(refused.error.message).toBe(
      'read_file may not read "README.md": it is not among the paths this project allows to be read. Do not retry with another spelling of this path; read files inside the project, or ask the user for what you need.',
    );
    expectFailure(await read(registry, { path: '.env' }), 'denied');
  });

  it('refuses an allowed name that links to a file outside the allowed paths', async () => {
    const registry = registryFor({ root: tree.root, allow: ['readme-link', 'src/'] });
    expectFailure(await read(registry, { path: 'readme-link' }), 'denied');
  });
});
