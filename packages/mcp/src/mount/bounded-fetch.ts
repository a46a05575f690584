// The HTTP half of the cap on what one server message may hold: the SDK's Streamable HTTP client
// reads a JSON answer whole (response.json()) and an SSE event until its end, with no limit, so
// a server could grow the host by every byte it sends. Every body is counted as it streams in.

/** Called once, when a body passes the cap; the body then fails and the rest is not read. */
export type Overflow = (cap: number) => void;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Bytes since the current message began. An SSE stream carries many messages (a GET stream
 * lives as long as the session), so each event is counted alone: an event ends at a blank line
 * (`\n\n`, `\r\n\r\n`, `\r\r`). Any other body is one message.
 */
function counter(eventStream: boolean): (chunk: Uint8Array) => number {
  let bytes = 0;
  if (!eventStream) return (chunk) => (bytes += chunk.byteLength);
  let lineBytes = 0;
  let previous = 0;
  return (chunk) => {
    for (let i = 0; i < chunk.byteLength; i++) {
      const byte = chunk[i]!;
      if (byte === LF && previous === CR) {
        previous = byte;
        continue;
      }
      previous = byte;
      if (byte === LF || byte === CR) {
        if (lineBytes === 0) bytes = 0;
        else bytes += 1;
        lineBytes = 0;
      } else {
        lineBytes += 1;
        bytes += 1;
      }
    }
    return bytes;
  };
}

function bounded(body: ReadableStream<Uint8Array>, eventStream: boolean, cap: number, overflow: Overflow): ReadableStream<Uint8Array> {
  const count = counter(eventStream);
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      if (count(value) > cap) {
        overflow(cap);
        // Stops the download: the socket is closed rather than drained.
        void reader.cancel().catch(() => {});
        controller.error(new Error(`a message of over ${cap} bytes was refused`));
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** `fetch` whose every response body fails past `cap` bytes of one message, calling `overflow` first. */
export function boundedFetch(cap: number, overflow: Overflow): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const type = response.headers.get('content-type') ?? '';
    const eventStream = /^\s*text\/event-stream\b/i.test(type);
    const capped = new Response(bounded(response.body, eventStream, cap, overflow), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // The SDK names a redirect's source by it.
    Object.defineProperty(capped, 'url', { value: response.url });
    return capped;
  };
}
