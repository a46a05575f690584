import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry, type AnyPlugin, type Outcome, type ToolLogger, type ToolCall, type ToolEvent } from '@toolshed/core';
import { createHost } from '@toolshed/host';
import plugin, { createSendEmailTool, type SendEmailOptions } from './index.js';

/** A real registry with send_email registered, recording every event and log line. */
export interface Harness {
  registry: ToolRegistry;
  cwd: string;
  events: ToolEvent[];
  logs: string[];
  send(input: unknown, callId?: string): Promise<Outcome>;
  /** Everything that left the registry (and the host, when there is one), as text, to search for secrets. */
  transcript(): string;
  dispose(): Promise<void>;
}

export async function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'toolshed-send-email-'));
}

function recordingLogger(logs: string[]): ToolLogger {
  const log = (level: string) => (message: string, data?: unknown) => logs.push(`${level} ${message} ${JSON.stringify(data ?? null)}`);
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

interface Parts {
  registry: ToolRegistry;
  cwd: string;
  logs: string[];
  close(): Promise<void>;
  /** Whether `cwd` was made here, and so is removed by dispose(). */
  ownDir: boolean;
  /** What the host reports, when there is one. */
  hostReport?: () => unknown;
}

function harness({ registry, cwd, logs, close, ownDir, hostReport }: Parts): Harness {
  const events: ToolEvent[] = [];
  registry.subscribe((event) => events.push(event));
  const outcomes: Outcome[] = [];
  return {
    registry,
    cwd,
    events,
    logs,
    async send(input, callId) {
      const call: ToolCall = { name: 'send_email', input };
      if (callId !== undefined) call.callId = callId;
      const outcome = await registry.dispatch(call);
      outcomes.push(outcome);
      return outcome;
    },
    transcript: () => JSON.stringify({ outcomes, events, logs, definitions: registry.list(), host: hostReport?.() ?? null }),
    async dispose() {
      await close();
      if (ownDir) await rm(cwd, { recursive: true, force: true });
    },
  };
}

/** send_email made in code (createSendEmailTool), with its options as given. */
export async function makeHarness(options: SendEmailOptions | undefined, cwd?: string): Promise<Harness> {
  const dir = cwd ?? (await makeTempDir());
  const logs: string[] = [];
  // send_email is destructive, so core asks for approval; these tests approve every call.
  const registry = new ToolRegistry({ approve: 'allow-all', logger: recordingLogger(logs) });
  const tool = createSendEmailTool(options, { cwd: dir });
  registry.register(tool).seal();
  return harness({ registry, cwd: dir, logs, close: async () => tool.close(), ownDir: !cwd });
}

/**
 * send_email loaded by the real host from options as a config file holds them: a secret is
 * written `{"env": "NAME"}` and the host resolves it from `env`, the one way a password comes in.
 * The host's plugin reports and warnings are part of the transcript.
 */
export async function makeHostHarness(options: Record<string, unknown>, env: Record<string, string>, cwd?: string): Promise<Harness> {
  const dir = cwd ?? (await makeTempDir());
  const logs: string[] = [];
  // Untyped, as a plugin named in toolshed.config.json is: `{"env": ...}` is not a string to TypeScript.
  const untyped: AnyPlugin = plugin;
  const registry = { approve: 'allow-all', logger: recordingLogger(logs) } as const;
  const host = await createHost({ cwd: dir, env, plugins: [[untyped, options]], registry });
  const hostReport = () => ({ plugins: host.plugins, warnings: host.warnings });
  return harness({ registry: host.registry, cwd: dir, logs, close: () => host.close(), ownDir: !cwd, hostReport });
}

/** The forms a password could leak in: plain, URL-encoded, base64 of it and of AUTH PLAIN. */
export function secretForms(user: string, password: string): string[] {
  return [
    password,
    encodeURIComponent(password),
    Buffer.from(password).toString('base64'),
    Buffer.from(`\0${user}\0${password}`).toString('base64'),
  ];
}
