import type { Progress } from './tool.js';
import type { Outcome } from './outcome.js';

export type ToolEvent =
  | { type: 'call.start'; callId: string; name: string; input: unknown; at: number }
  | { type: 'call.progress'; callId: string; name: string; progress: Progress; at: number }
  | { type: 'call.end'; callId: string; name: string; outcome: Outcome; at: number };

export type ToolEventListener = (event: ToolEvent) => void;

/**
 * Subscribers of one registry. A subscriber that throws is dropped from that
 * delivery only: observing calls must never change their outcome.
 */
export class EventHub {
  #listeners: ToolEventListener[] = [];
  #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  get active(): boolean {
    return this.#listeners.length > 0;
  }

  subscribe(listener: ToolEventListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  emit(event: ToolEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }
}
