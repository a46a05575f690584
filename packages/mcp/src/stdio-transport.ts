import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { checkMessage, type MessageCheck } from './jsonrpc-message.js';
import { LineReader, MAX_LINE_BYTES, type Line } from './line-reader.js';

const MIB = MAX_LINE_BYTES / (1024 * 1024);

// A request that was too long to read: its id, when the line ends with it, as the SDK's clients write it.
const TRAILING_ID = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*}\s*$/;

/** What a line holds: one JSON-RPC message, or the error to answer it with. */
function read(line: Line): MessageCheck | undefined {
  if (line.kind === 'too_long') {
    const match = TRAILING_ID.exec(line.tail);
    return {
      ok: false,
      code: ErrorCode.InvalidRequest,
      id: match ? (JSON.parse(match[1]!) as RequestId) : null,
      message: `Message too long: ${line.bytes} bytes on one line; this server reads at most ${MIB} MiB (${MAX_LINE_BYTES} bytes) per message. The message was dropped; send smaller arguments.`,
    };
  }
  // Blank lines carry nothing; clients may send them between messages.
  if (line.text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (error) {
    return {
      ok: false,
      code: ErrorCode.ParseError,
      id: null,
      message: `Parse error: the line is not JSON (${(error as Error).message}). Send one JSON-RPC message per line.`,
    };
  }
  if (Array.isArray(value)) {
    return {
      ok: false,
      code: ErrorCode.InvalidRequest,
      id: null,
      message: 'Invalid Request: batches (JSON arrays) are not supported by MCP since 2025-06-18. Send one JSON-RPC message per line.',
    };
  }
  return checkMessage(value);
}

/**
 * MCP's stdio transport: one JSON-RPC message per line each way. Unlike the
 * SDK's, it answers a line that is not a JSON-RPC message (bad JSON, a batch,
 * no `jsonrpc`, over 10 MiB) with a JSON-RPC error and says so on stderr,
 * instead of dropping it or exiting; and it closes when its input ends.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #reader = new LineReader();
  #lineNumber = 0;
  #closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly stderr: Writable,
  ) {}

  #onData = (chunk: Buffer | string) => {
    for (const line of this.#reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
      this.#lineNumber += 1;
      const verdict = read(line);
      if (verdict === undefined) continue;
      if (verdict.ok) {
        this.onmessage?.(verdict.message);
        continue;
      }
      this.stderr.write(`toolshed mcp: stdin line ${this.#lineNumber}: ${verdict.message} (answered ${verdict.code})\n`);
      this.send({
        jsonrpc: '2.0',
        id: verdict.id,
        error: { code: verdict.code, message: verdict.message },
      } as unknown as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
    }
  };

  #onEnd = () => void this.close();
  #onError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.#onData);
    this.stdin.once('end', this.#onEnd);
    this.stdin.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.stdin.off('data', this.#onData);
    this.stdin.off('end', this.#onEnd);
    this.stdin.off('error', this.#onError);
    // Let the process exit once nothing else reads our input.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }
}
