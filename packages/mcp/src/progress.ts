import type { Progress, ToolRegistry } from '@toolshed/core';
import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';

type Send = (notification: ServerNotification) => Promise<void>;

/**
 * One subscription per registry, shared by every session and call that asked
 * for progress: an event finds its call by id instead of visiting a listener
 * per call in flight. It unsubscribes when no such call is left, so a registry
 * served without progress pays nothing for events.
 */
class ProgressRoutes {
  #routes = new Map<string, (progress: Progress) => void>();
  #unsubscribe: (() => void) | undefined;

  constructor(readonly registry: ToolRegistry) {}

  add(callId: string, route: (progress: Progress) => void): () => void {
    this.#routes.set(callId, route);
    this.#unsubscribe ??= this.registry.subscribe((event) => {
      if (event.type === 'call.progress') this.#routes.get(event.callId)?.(event.progress);
    });
    return () => {
      this.#routes.delete(callId);
      if (this.#routes.size === 0) {
        this.#unsubscribe?.();
        this.#unsubscribe = undefined;
      }
    };
  }
}

const routesByRegistry = new WeakMap<ToolRegistry, ProgressRoutes>();

/**
 * Forward one call's `call.progress` events as `notifications/progress` for the
 * client's token. Returns the function that stops forwarding.
 */
export function forwardProgress(registry: ToolRegistry, callId: string, progressToken: ProgressToken, send: Send): () => void {
  let routes = routesByRegistry.get(registry);
  if (!routes) {
    routes = new ProgressRoutes(registry);
    routesByRegistry.set(registry, routes);
  }
  let last = -Infinity;
  return routes.add(callId, ({ progress, total, message }) => {
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
