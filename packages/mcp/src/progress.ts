import type { ToolRegistry } from '@toolshed/core';
import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';

type Send = (notification: ServerNotification) => Promise<void>;

/**
 * Forward one call's `call.progress` events as `notifications/progress` for the
 * client's token. Returns the function that stops forwarding.
 */
export function forwardProgress(registry: ToolRegistry, callId: string, progressToken: ProgressToken, send: Send): () => void {
  let last = -Infinity;
  return registry.subscribe((event) => {
    if (event.type !== 'call.progress' || event.callId !== callId) return;
    const { progress, total, message } = event.progress;
    // MCP requires progress to increase with every notification; a tool that
    // reports a step twice (or goes backwards) must not break the client.
    if (!(progress > last)) return;
    last = progress;
    const params: { progressToken: ProgressToken; progress: number; total?: number; message?: string } = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    // A client that went away cannot be told; the call itself carries on to its outcome.
    send({ method: 'notifications/progress', params }).catch(() => {});
  });
}
