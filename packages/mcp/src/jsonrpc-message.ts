import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A parsed JSON value as a JSON-RPC message, or the Invalid Request (-32600) to answer it with. */
export type MessageCheck = { ok: true; message: JSONRPCMessage } | { ok: false; code: number; message: string; id: RequestId | null };

function idOf(value: unknown): RequestId | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/**
 * Check one JSON value (not a batch) as a JSON-RPC 2.0 message, for stdio and HTTP alike: valid
 * JSON that is not a message is an Invalid Request (-32600) saying what is wrong, not the parse
 * error (-32700) the SDK's transports answer it with.
 */
export function checkMessage(value: unknown): MessageCheck {
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const jsonrpc = (value as { jsonrpc?: unknown } | null)?.jsonrpc;
  const why =
    typeof value !== 'object' || value === null
      ? `a JSON-RPC message is an object, not ${value === null ? 'null' : typeof value}`
      : jsonrpc !== '2.0'
        ? `"jsonrpc" must be "2.0" (got ${JSON.stringify(jsonrpc) ?? 'nothing'})`
        : 'it is neither a request (id, method), a notification (method) nor a response (id, result or error)';
  return { ok: false, code: ErrorCode.InvalidRequest, id: idOf(value), message: `Invalid Request: ${why}.` };
}
