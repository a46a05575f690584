import { readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createHost } from '@toolshed/host';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, secretForms } from './harness.fixture.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.fixture.js';

// A password has one way in: the host's {"env": NAME} reference in toolshed.config.json (or the
// value itself, in code). These tests load the built plugin the way a project does, from a
// config file naming its folder, with the real host.

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const USER = 'agent@example.com';
const PASSWORD = 'c0nfig-S3cret/pass';

let project: string;
let server: TestSmtpServer;

beforeEach(async () => {
  project = await makeTempDir();
  await writeFile(`${project}/package.json`, '{ "name": "project", "private": true }\n');
  server = await startSmtpServer({ auth: { user: USER, pass: PASSWORD } });
});

afterEach(async () => {
  await server.close();
  await rm(project, { recursive: true, force: true });
});

async function writeConfig(smtp: Record<string, unknown>): Promise<void> {
  const options = { from: 'bot@example.com', smtp: { host: '127.0.0.1', port: server.port, user: USER, ...smtp }, allow: ['example.com'] };
  await writeFile(`${project}/toolshed.config.json`, JSON.stringify({ plugins: [[PLUGIN_DIR, options]] }, null, 2));
}

describe('the SMTP password in toolshed.config.json', () => {
  it('is read from the variable named by {"env": NAME} and used to log in; no form of it is in what the host reports', async () => {
    await writeConfig({ password: { env: 'SMTP_PASSWORD' } });
    const host = await createHost({ cwd: project, env: { SMTP_PASSWORD: PASSWORD }, registry: { approve: 'allow-all' } });
    try {
      const outcome = await host.registry.dispatch({
        name: 'send_email',
        callId: 'call-env',
        input: { to: 'alice@example.com', subject: 's', body: 'b' },
      });
      expect(outcome.ok).toBe(true);
      expect(server.logins).toEqual([{ user: USER, pass: PASSWORD }]);
      const reported = JSON.stringify({ outcome, plugins: host.plugins, warnings: host.warnings });
      for (const form of secretForms(USER, PASSWORD)) expect(reported).not.toContain(form);
    } finally {
      await host.close();
    }
  });

  it('fails the start, naming the option and the variable, when the variable is not set; nothing is sent or written', async () => {
    await writeConfig({ password: { env: 'SMTP_PASSWORD' } });
    const error = (await createHost({ cwd: project, env: {} }).catch((thrown: unknown) => thrown)) as Error;
    expect(error.message).toContain(
      '[options]: option smtp.password refers to environment variable SMTP_PASSWORD, which is not set. Set SMTP_PASSWORD before starting, or change the option in toolshed.config.json.',
    );
    expect(server.logins).toEqual([]);
    expect(await readdir(project)).toEqual(['package.json', 'toolshed.config.json']);
  });

  it('an old config with smtp.passwordEnv fails the start saying what to write instead; nothing is sent or written', async () => {
    await writeConfig({ passwordEnv: 'SMTP_PASSWORD' });
    const error = (await createHost({ cwd: project, env: { SMTP_PASSWORD: PASSWORD } }).catch((thrown: unknown) => thrown)) as Error;
    expect(error.message).toContain(
      `@toolshed/tool-send-email@1.0.0 (${PLUGIN_DIR}) [options]: invalid options: option smtp.passwordEnv: is no longer an option: in toolshed.config.json write "password": {"env": "<the variable>"} in smtp instead`,
    );
    expect(error.message).not.toContain(PASSWORD);
    expect(server.logins).toEqual([]);
    expect(await readdir(project)).toEqual(['package.json', 'toolshed.config.json']);
  });
});
