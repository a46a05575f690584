import type { Outcome, Progress } from '@toolshed/core';
import type { contextView, pluginsView, searchView, toolsView } from './views.js';

// What each API answers, as the page reads it: page/*.js takes these types through JSDoc, so
// the page is checked against the server's own views (`pnpm typecheck`, tsconfig.page.json).

export type PluginsAnswer = ReturnType<typeof pluginsView>;
export type PluginView = PluginsAnswer['plugins'][number];
export type ToolsAnswer = ReturnType<typeof toolsView>;
export type ToolView = ToolsAnswer['tools'][number];
export type ContextAnswer = Awaited<ReturnType<typeof contextView>>;
export type SearchAnswer = Awaited<ReturnType<typeof searchView>>;

/** One line of `POST /api/call`'s answer: the call id first, progress as it comes, the outcome last. */
export type CallLine =
  | { type: 'start'; callId: string }
  | { type: 'progress'; progress: Progress }
  | { type: 'outcome'; outcome: Outcome; model: unknown };
