import type { Adapter } from './adapter.js';
import { anthropic } from './anthropic/adapter.js';
import type { ToolFormat } from './formats.js';
import { gemini } from './gemini/adapter.js';
import { mcp } from './mcp/adapter.js';
import { openaiChat, openaiChatStrict } from './openai/chat.js';
import { openaiResponses, openaiResponsesStrict } from './openai/responses.js';

/** Every adapter, by the name of its format (`TOOL_FORMATS`). */
export const adapters = {
  openai: openaiChat,
  'openai-strict': openaiChatStrict,
  'openai-responses': openaiResponses,
  'openai-responses-strict': openaiResponsesStrict,
  anthropic,
  gemini,
  mcp,
} as const satisfies { [F in ToolFormat]: Adapter<unknown, unknown, F> };
