import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { approvalPolicy, sameDefinition, ToolRegistry, type AnyTool } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import plugin, { createSendEmailTool } from './index.js';
import { pluginOptions } from '@toolshed/core';
import { resolveConfig } from './config.js';
import { makeTempDir } from './harness.fixture.js';

const PASSWORD = 'pl#gin-S3cret';

describe('the send_email plugin', () => {
  it('is a plugin whose tools come from validated options and the host cwd', async () => {
    expect(plugin.name).toBe('@toolshed/tool-send-email');
    expect(plugin.apiVersion).toBe(1);
    const options = v.parse(plugin.options!, { from: 'bot@example.com' });
    const tools = (await (plugin.tools as (o: unknown, h: { cwd: string }) => AnyTool[])(options, { cwd: '/tmp/project' })) as AnyTool[];
    expect(tools.map((t) => t.name)).toEqual(['send_email']);
    const registry = new ToolRegistry().register(tools[0]!);
    const definition = registry.get('send_email')!.definition;
    expect(definition.annotations).toEqual({ title: 'Send email', destructive: true, openWorld: true, idempotent: false });
    expect(definition.inputSchema.additionalProperties).toBe(false);
    expect(JSON.stringify(definition)).not.toContain('bot@example.com');
  });

  it('shows the model the same definition whatever the options (so a static manifest stays true)', () => {
    const plain = new ToolRegistry().register(createSendEmailTool(undefined, { cwd: '/a' })).list()[0]!;
    const configured = new ToolRegistry()
      .register(
        createSendEmailTool(
          {
            from: 'bot@example.com',
            smtp: { host: 'mail.example.com', user: 'bot', password: PASSWORD },
            allow: ['example.com'],
            limits: { recipients: 2 },
          },
          { cwd: '/b' },
        ),
      )
      .list()[0]!;
    expect(sameDefinition(plain, configured)).toBe(true);
    expect(JSON.stringify(configured)).not.toContain(PASSWORD);
    expect(JSON.stringify(configured)).not.toContain('mail.example.com');
  });
});

describe('send_email under the default approval policy', () => {
  it('is asked about, and sends nothing when the answer is no', async () => {
    const cwd = await makeTempDir();
    const tool = createSendEmailTool(undefined, { cwd });
    try {
      const asked: string[] = [];
      let answer = false;
      const registry = new ToolRegistry({
        approve: approvalPolicy((call) => {
          asked.push(call.name);
          return answer ? true : { approved: false, reason: 'no terminal to ask on; pass --yes' };
        }),
      }).register(tool);
      const input = { to: 'a@example.com', subject: 's', body: 'b' };
      const denied = await registry.dispatch({ name: 'send_email', input });
      expect(denied.ok ? 'ok' : denied.error.code).toBe('denied');
      await expect(readdir(join(cwd, '.toolshed', 'outbox'))).rejects.toThrow(/ENOENT/);
      answer = true;
      expect((await registry.dispatch({ name: 'send_email', input })).ok).toBe(true);
      expect(await readdir(join(cwd, '.toolshed', 'outbox'))).toHaveLength(1);
      expect(asked).toEqual(['send_email', 'send_email']);
    } finally {
      await tool.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('send_email options', () => {
  const resolved = (options: Parameters<typeof createSendEmailTool>[0], cwd: string) => resolveConfig(pluginOptions(plugin, options), cwd);
  const error = (options: unknown) => {
    try {
      createSendEmailTool(options as never, { cwd: '/project' });
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('expected the options to be refused');
  };

  it('resolves defaults: outbox and ledger under the cwd, STARTTLS port 587, implicit TLS 465', () => {
    const none = resolved({}, '/project');
    expect(none.smtp).toBeUndefined();
    expect(none.outboxDir).toBe('/project/.toolshed/outbox');
    expect(none.ledger).toEqual({ kind: 'file', path: '.toolshed/send-email/calls.jsonl' });
    expect(none.from).toBe('toolshed@localhost');
    const plain = resolved({ from: 'a@example.com', smtp: { host: 'mail.example.com' } }, '/p');
    expect(plain.smtp).toMatchObject({ host: 'mail.example.com', port: 587, secure: false, pool: false });
    const tls = resolved({ from: 'a@example.com', smtp: { url: 'smtps://bot%40example.com@mail.example.com', password: PASSWORD } }, '/p');
    expect(tls.smtp).toMatchObject({ host: 'mail.example.com', port: 465, secure: true, user: 'bot@example.com', password: PASSWORD });
  });

  it.each([
    [
      'a password inside smtp.url',
      { from: 'a@example.com', smtp: { url: `smtp://u:${encodeURIComponent(PASSWORD)}@h.example` } },
      'smtp.url contains a password',
    ],
    [
      'an unparseable smtp.url holding a password',
      { from: 'a@example.com', smtp: { url: `smtp://u:${PASSWORD}@h.example` } },
      'smtp.url is not a URL',
    ],
    ['both url and host', { from: 'a@example.com', smtp: { url: 'smtp://h.example', host: 'h.example' } }, 'not both'],
    ['a url of another scheme', { from: 'a@example.com', smtp: { url: 'http://h.example' } }, 'smtp:// or smtps://'],
    ['no server', { from: 'a@example.com', smtp: {} }, 'set smtp.url or smtp.host'],
    ['a user without a password', { from: 'a@example.com', smtp: { host: 'h.example', user: 'u' } }, 'smtp.user is set but no password'],
    ['a password without a user', { from: 'a@example.com', smtp: { host: 'h.example', password: PASSWORD } }, 'no user'],
    [
      'the removed smtp.passwordEnv',
      { from: 'a@example.com', smtp: { host: 'h.example', user: 'u', passwordEnv: 'SMTP_PASSWORD' } },
      'option smtp.passwordEnv: is no longer an option: in toolshed.config.json write "password": {"env": "<the variable>"} in smtp instead',
    ],
    ['smtp without from', { smtp: { host: 'h.example' } }, 'option from: is required when smtp is configured'],
    ['a from that is no address', { from: 'bot' }, 'option from: failed the email check'],
    ['an unknown option', { form: 'a@example.com' }, 'unknown option "form"'],
    ['a port out of range', { smtp: { host: 'h.example', port: 70000 } }, 'option smtp.port: '],
    ['a bad allow entry', { allow: ['not a domain'] }, 'allow entry "not a domain"'],
    ['a zero limit', { limits: { recipients: 0 } }, 'option limits.recipients: '],
  ])('refuses %s, naming the option', (_label, options, said) => {
    const message = error(options);
    // The schema's problems in core's words, the rules between fields in the plugin's.
    expect(message).toMatch(/^(@toolshed\/tool-send-email: invalid options|send_email options): /);
    expect(message).toContain(said);
    expect(message).not.toContain(PASSWORD);
    expect(message).not.toContain(encodeURIComponent(PASSWORD));
  });

  it('never quotes a password given with the wrong type', () => {
    const message = error({ from: 'a@example.com', smtp: { host: 'h.example', user: 'u', password: 123456789 } });
    expect(message).toContain('option smtp.password: expected string, received number');
    expect(message).not.toContain('123456789');
  });

  it('takes a password given directly (a host that resolved it from the environment)', () => {
    const config = resolved({ from: 'a@example.com', smtp: { host: 'h.example', user: 'u', password: PASSWORD } }, '/p');
    expect(config.smtp?.password).toBe(PASSWORD);
  });
});
