import type { Progress } from '@toolshed/core';
import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';

type Send = (notification: ServerNotification) => Promise<void>;

/**
 * One call's progress as `notifications/progress` for the client's token, given to dispatch as
 * that call's `onProgress`: it reaches the session and request that made the call, never another
 * call that chose the same call id (ids are the client's, and every session shares the registry).
 */
export function progressSender(progressToken: ProgressToken, send: Send): (progress: Progress) => void {
  let last = -Infinity;
  return ({ progress, total, message }) => {
    // MCP requires progress to increase with every notification; a tool that
    // reports a step twice (or goes backwards) must not break the client.
    if (!(progress > last)) return;
    last = progress;
    const params: { progressToken: ProgressToken; progress: number; total?: number; message?: string } = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    // A client that went away cannot be told; the call itself carries on to its outcome.
    send({ method: 'notifications/progress', params }).catch(() => {});
  };
}
