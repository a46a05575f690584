import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry, type Outcome, type ToolCall, type ToolEvent } from '@toolshed/core';
import { createSendEmailTool, type SendEmailOptions, type SendEmailTool } from './index.js';

/** A real registry with send_email registered, recording every event and log line. */
export interface Harness {
  registry: ToolRegistry;
  tool: SendEmailTool;
  cwd: string;
  events: ToolEvent[];
  logs: string[];
  send(input: unknown, callId?: string): Promise<Outcome>;
  /** Everything that left the registry, as text, to search for secrets. */
  transcript(): string;
  dispose(): Promise<void>;
}

export async function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'toolshed-send-email-'));
}

export async function makeHarness(options: SendEmailOptions | undefined, cwd?: string): Promise<Harness> {
  const dir = cwd ?? (await makeTempDir());
  const logs: string[] = [];
  const log = (level: string) => (message: string, data?: unknown) => logs.push(`${level} ${message} ${JSON.stringify(data ?? null)}`);
  // send_email is destructive, so core asks for approval; these tests approve every call.
  const registry = new ToolRegistry({ approve: 'allow-all', logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') } });
  const tool = createSendEmailTool(options, { cwd: dir });
  registry.register(tool).seal();
  const events: ToolEvent[] = [];
  registry.subscribe((event) => events.push(event));
  const outcomes: Outcome[] = [];
  return {
    registry,
    tool,
    cwd: dir,
    events,
    logs,
    async send(input, callId) {
      const call: ToolCall = { name: 'send_email', input };
      if (callId !== undefined) call.callId = callId;
      const outcome = await registry.dispatch(call);
      outcomes.push(outcome);
      return outcome;
    },
    transcript: () => JSON.stringify({ outcomes, events, logs, definitions: registry.list() }),
    async dispose() {
      await tool.close();
      if (!cwd) await rm(dir, { recursive: true, force: true });
    },
  };
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
