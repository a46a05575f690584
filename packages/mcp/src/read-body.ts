import type { IncomingMessage } from 'node:http';

/** The SDK transport's own limit for a POST body. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type Body = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/** Read a POST body as JSON, answering as the SDK transport would (413 over its limit, -32700 for bad JSON). */
export async function readBody(req: IncomingMessage): Promise<Body> {
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
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { ok: false, status: 400, code: -32700, message: `Parse error: the body is not JSON (${(error as Error).message}).` };
  }
}
