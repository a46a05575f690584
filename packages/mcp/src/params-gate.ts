import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { formatPath } from '@toolshed/core/contract';

// The requests whose params the SDK checks only with a schema that, when it
// fails, answers -32603 with the raw validation JSON. We check them first.
const CHECKED = {
  'tools/call': { schema: CallToolRequestSchema, form: '{"name": "<tool>", "arguments": {...}}' },
  initialize: {
    schema: InitializeRequestSchema,
    form: '{"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "...", "version": "..."}}',
  },
} as const;

/** `params.name: expected string, received number`, in the words of the JSON the client sent. */
function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map(({ path, message }) => `${formatPath(path) || 'the request'}: ${message.replace(/^Invalid input: /, '')}`)
    .join('; ');
}

/** The -32602 error for a `tools/call` or `initialize` request whose params are malformed; undefined for anything else. */
export function invalidParams(message: unknown): { code: number; message: string } | undefined {
  // A plain look first: every message passes here, and only two methods are checked.
  const method = (message as { method?: unknown } | null)?.method;
  if (typeof method !== 'string' || !Object.hasOwn(CHECKED, method) || !isJSONRPCRequest(message)) return undefined;
  const { schema, form } = CHECKED[method as keyof typeof CHECKED];
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  return {
    code: ErrorCode.InvalidParams,
    message: `Invalid params for ${method}: ${describeIssues(parsed.error.issues)}. Send params of the form ${form}.`,
  };
}

/**
 * Answer a `tools/call` or `initialize` whose params are malformed with -32602
 * (Invalid params) and a message that names the field, before the SDK sees it.
 * Everything else goes to the server unchanged.
 */
export function guardParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const error = invalidParams(message);
    // invalidParams answers requests only.
    if (error && 'id' in message) {
      transport
        .send({ jsonrpc: '2.0', id: message.id, error }, { relatedRequestId: message.id })
        .catch((failure: unknown) => transport.onerror?.(failure as Error));
      return;
    }
    deliver?.(message, extra);
  };
}
