import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, makeTestTree, read, registryFor, type TestTree } from './test-tree.fixture.js';

// Private keys and cloud credentials under names the deny list does not know: refused by what they hold.
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
const sec1 = ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string;
const encryptedPkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }) as string;
const legacyEncrypted = rsa.privateKey.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'pw' }) as string;
const publicKey = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string;

const base64Lines = (bytes: number, width = 64) =>
  randomBytes(bytes)
    .toString('base64')
    .match(new RegExp(`.{1,${width}}`, 'g'))!
    .join('\n');
const block = (label: string, body: string, headers = '') => `-----BEGIN ${label}-----\n${headers}${body}\n-----END ${label}-----\n`;
const certificate = block('CERTIFICATE', base64Lines(1200));
const openssh = block(
  'OPENSSH PRIVATE KEY',
  `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n${base64Lines(300, 70)}`,
);
const pgp = block('PGP PRIVATE KEY BLOCK', base64Lines(2000), 'Version: GnuPG v2\nComment: release key\n\n');
const ssh2 = `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20240101"\n${base64Lines(1200)}\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\n`;
const putty = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n${base64Lines(60)}\nPrivate-Lines: 1\n${base64Lines(40)}\nPrivate-MAC: ${randomBytes(32).toString('hex')}\n`;
const serviceAccount = JSON.stringify(
  {
    type: 'service_account',
    project_id: 'acme-prod',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: pkcs8,
    client_email: 'deployer@acme-prod.iam.gserviceaccount.com',
  },
  null,
  2,
);
const authorizedUser = JSON.stringify({
  client_id: 'x.apps.googleusercontent.com',
  client_secret: 'd-FL95Q19q7M',
  refresh_token: `1//${randomBytes(40).toString('base64url')}`,
  type: 'authorized_user',
});
const kubeconfig = `apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-certificate-data: ${Buffer.from(certificate).toString('base64')}\n    client-key-data: ${Buffer.from(pkcs1).toString('base64')}\n`;
const indentedYaml = `tls:\n  cert: |\n${certificate.replace(/^/gm, '    ')}  key: |\n${sec1.replace(/^/gm, '    ')}`;
const jsonEscaped = JSON.stringify({ name: 'api', signingKey: pkcs8 });
const filler = `${'an ordinary line of a log, long enough to fill the first pages\n'.repeat(200)}`; // 12.8 KB

/** A file holding a secret, and one line of it that must never reach the model. */
const SECRETS: { name: string; content: string | Buffer; why: string }[] = [
  { name: 'notes/deploy.txt', content: pkcs8, why: 'a PKCS#8 key' },
  { name: 'notes/rsa.txt', content: pkcs1.replaceAll('\n', '\r\n'), why: 'a PKCS#1 RSA key with CRLF line ends' },
  { name: 'notes/bundle.crt', content: certificate + sec1, why: 'an EC key after a certificate in a bundle' },
  { name: 'notes/enc.txt', content: encryptedPkcs8, why: 'an ENCRYPTED PRIVATE KEY' },
  { name: 'notes/legacy.txt', content: legacyEncrypted, why: 'a legacy encrypted key with Proc-Type and DEK-Info headers' },
  { name: 'notes/ssh.txt', content: openssh, why: 'an OpenSSH key' },
  { name: 'notes/release.txt', content: pgp, why: 'a PGP PRIVATE KEY BLOCK with armor headers' },
  { name: 'notes/ssh2.txt', content: ssh2, why: 'an SSH2 encrypted key' },
  { name: 'notes/deploy.txt2', content: putty, why: 'a PuTTY key' },
  { name: 'notes/bom.txt', content: `\uFEFF${pkcs8}`, why: 'a key after a UTF-8 BOM' },
  { name: 'deploy/values.yaml', content: indentedYaml, why: 'a key indented in a YAML block' },
  { name: 'config/app.json', content: jsonEscaped, why: 'a key in a JSON string, with \\n escapes' },
  { name: 'admin.conf', content: kubeconfig, why: 'a base64-encoded key (a kubeconfig under another name)' },
  { name: 'gcp/prod-3f2a9c.json', content: serviceAccount, why: 'a service-account key under the name the console gives it' },
  { name: 'adc.json', content: authorizedUser, why: "an authorized_user credential (a user's refresh token)" },
  { name: 'logs/late.log', content: filler + pkcs8, why: 'a key after 12 KB of other lines (read from line 1, up to maxBytes)' },
];

/** Strings of each secret that must not appear in an outcome. */
function piecesOf(content: string | Buffer): string[] {
  const text = content.toString();
  const lines = text.split(/\r?\n|\\n/).filter((line) => /^[A-Za-z0-9+/=]{40,}$/.test(line.trim()));
  const quoted = [...text.matchAll(/"(?:private_key|refresh_token|client-key-data)"\s*:\s*"([^"]{20})/g)].map((match) => match[1]!);
  const encoded = [...text.matchAll(/client-key-data: (\S{40})/g)].map((match) => match[1]!);
  return [...lines, ...quoted, ...encoded];
}

let tree: TestTree;
beforeAll(async () => {
  tree = await makeTestTree();
  for (const { name, content } of SECRETS) {
    await mkdir(path.dirname(path.join(tree.root, name)), { recursive: true });
    await writeFile(path.join(tree.root, name), content);
  }
});
afterAll(() => tree.cleanup());

describe('files holding a private key or a cloud credential, whatever their name', () => {
  it.each(SECRETS)('refuses $why ($name), with none of it in the outcome', async ({ name, content }) => {
    const outcome = await read(registryFor({ root: tree.root }), { path: name });
    const failure = expectFailure(outcome, 'denied');
    expect(failure.error.message).toMatch(/^read_file may not read .*(private key|Google Cloud credential).*whatever the file is called/);
    const pieces = piecesOf(content);
    expect(pieces.length).toBeGreaterThan(0);
    for (const piece of pieces) expect(JSON.stringify(outcome)).not.toContain(piece);
  });

  it('refuses every page of a key past the first 8 KiB, even a line at a time', async () => {
    const registry = registryFor({ root: tree.root });
    const lines = (filler + pkcs8).split('\n');
    const begin = lines.indexOf('-----BEGIN PRIVATE KEY-----') + 1;
    // The marker line alone holds nothing; each line after it is refused.
    expectSuccess(await read(registry, { path: 'logs/late.log', offset: begin, limit: 1 }));
    for (let line = begin + 1; line < lines.length; line++) {
      const outcome = await read(registry, { path: 'logs/late.log', offset: line, limit: 1 });
      expect(expectFailure(outcome, 'denied').error.message).toContain('private key');
    }
    expectFailure(await read(registry, { path: 'logs/late.log', offset: -3 }), 'denied');
    // Lines far enough before the key are ordinary lines of the file.
    expect(expectSuccess(await read(registry, { path: 'logs/late.log', offset: 1, limit: 3 })).output.firstLine).toBe(1);
  });

  it('returns the lines of a key block longer than 8 KiB that lie more than 8 KiB past its marker, after the first 8 KiB: the documented bound', async () => {
    const long = block('PGP PRIVATE KEY BLOCK', base64Lines(12_000), 'Version: GnuPG v2\n\n');
    await writeFile(path.join(tree.root, 'logs/long-key.log'), filler + long);
    const lines = (filler + long).split('\n');
    const far = lines.length - 3; // about 16 KB after the marker
    const { output } = expectSuccess(await read(registryFor({ root: tree.root }), { path: 'logs/long-key.log', offset: far, limit: 1 }));
    expect(output.text).toBe(lines[far - 1]);
  });

  it('refuses a key in UTF-16 as a binary file, with none of it in the outcome', async () => {
    await writeFile(path.join(tree.root, 'notes/utf16.txt'), Buffer.from(`\uFEFF${pkcs8}`, 'utf16le'));
    const outcome = await read(registryFor({ root: tree.root }), { path: 'notes/utf16.txt' });
    expect(expectFailure(outcome, 'execution_failed').error.message).toContain('binary');
    expect(JSON.stringify(outcome)).not.toContain('MII');
  });
});

describe('look-alikes that stay readable', () => {
  const LOOK_ALIKES: [string, string][] = [
    ['docs/keys.md', 'Keys start with a line "BEGIN PRIVATE KEY" between dashes; never commit one.\n'],
    ['docs/pem.md', 'A key file looks like:\n\n```\n-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n```\n'],
    ['docs/inline.md', 'Refuse any file starting with `-----BEGIN RSA PRIVATE KEY-----` in review.\n'],
    ['docs/placeholder.yaml', 'key: |\n  -----BEGIN PRIVATE KEY-----\n  <your key here>\n  -----END PRIVATE KEY-----\n'],
    ['certs/public.txt', publicKey],
    ['certs/chain.crt', certificate],
    ['docs/service-account.md', 'Create a key: its JSON has "type": "service_account" and a "private_key" field.\n'],
    ['schema/credential.json', JSON.stringify({ properties: { type: { const: 'service_account' }, client_email: { type: 'string' } } })],
  ];
  beforeAll(async () => {
    for (const [name, content] of LOOK_ALIKES) {
      await mkdir(path.dirname(path.join(tree.root, name)), { recursive: true });
      await writeFile(path.join(tree.root, name), content);
    }
  });

  it.each(LOOK_ALIKES)('reads %s', async (name, content) => {
    const { output } = expectSuccess(await read(registryFor({ root: tree.root }), { path: name }));
    expect(output.text).toBe(content.replace(/\n$/, ''));
  });

  it('reads its own source, which names every marker it looks for', async () => {
    const source = await readFile(new URL('./secret-content.ts', import.meta.url), 'utf8');
    await writeFile(path.join(tree.root, 'src/secret-content.ts'), source);
    const { output } = expectSuccess(await read(registryFor({ root: tree.root }), { path: 'src/secret-content.ts' }));
    expect(output.text).toBe(source.replace(/\n$/, ''));
  });
});
