import { describeReceived } from './issues.js';
import { describeThrown } from './thrown.js';
import type { Progress } from './tool.js';
import { isRecord } from './record.js';

const TAKES = 'ctx.report() takes { progress: number, total?: number, message?: string }';

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * A tool's progress report as events carry it: exactly `progress`, `total` and `message`, each
 * of its type, so every `call.progress` event can be written as JSON (a transcript line, an MCP
 * notification). Any other report is a problem to log and drop, never to throw: a tool may
 * report from a timer or a stream callback, where a throw would end the whole process.
 */
export function readProgress(value: unknown): { progress: Progress } | { problem: string } {
  let progress: unknown;
  let total: unknown;
  let message: unknown;
  try {
    // Read once, here: a getter or a proxy (even a revoked one) could throw, or answer
    // differently a second time.
    if (!isRecord(value)) return { problem: `${TAKES}; it got ${describeReceived(value)}` };
    ({ progress, total, message } = value as Record<string, unknown>);
  } catch (error) {
    return { problem: `${TAKES}; reading it threw (${describeThrown(error)})` };
  }
  if (!finite(progress)) return { problem: `${TAKES}; its progress was ${describeReceived(progress)}, not a finite number` };
  const read: Progress = { progress };
  if (total !== undefined) {
    if (!finite(total)) return { problem: `${TAKES}; its total was ${describeReceived(total)}, not a finite number` };
    read.total = total;
  }
  if (message !== undefined) {
    if (typeof message !== 'string') return { problem: `${TAKES}; its message was ${describeReceived(message)}, not a string` };
    read.message = message;
  }
  return { progress: read };
}
