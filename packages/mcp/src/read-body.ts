import type { IncomingMessage } from 'node:http';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { checkMessage } from './jsonrpc-message.js';

/** The SDK transport's own limit for a POST body. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type Body = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string; id?: RequestId | null };

/**
 * Read a POST body as one JSON-RPC message, answering as the SDK transport would (413 over its
 * limit, -32700 for bad JSON). A JSON array (a JSON-RPC batch) is refused whole with
 * 400 and -32600, none of it run: MCP dropped batching in revision 2025-06-18, and this server
 * speaks that revision and later (the SDK negotiates 2025-11-25 with current clients). An older
 * client that negotiated 2025-03-26, which allowed batches, is refused too; it can send one
 * message per POST, which every revision allows. Valid JSON that is no JSON-RPC message is
 * refused with 400 and -32600 too, saying what is wrong, as on stdio.
 */
export async function readMessage(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      return {
        ok: false,
        status: 413,
        code: -32000,
        message: `Payload too large: a request body is at most ${MAX_BODY_BYTES / 1024 / 1024} MiB.`,
      };
    }
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return { ok: false, status: 400, code: -32700, message: `Parse error: the body is not JSON (${(error as Error).message}).` };
  }
  if (Array.isArray(value)) {
    return {
      ok: false,
      status: 400,
      code: -32600,
      message: `Invalid Request: batches (JSON arrays) are not supported by MCP since 2025-06-18, so none of the ${value.length} messages in this one was run. Send one JSON-RPC message per POST.`,
    };
  }
  // The SDK's transport answers valid JSON that is no JSON-RPC message (no "jsonrpc", say) with -32700.
  const checked = checkMessage(value);
  return checked.ok ? { ok: true, value } : { ok: false, status: 400, code: checked.code, message: checked.message, id: checked.id };
}
