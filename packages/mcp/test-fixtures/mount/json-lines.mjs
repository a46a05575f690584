// The framing the hand-written test servers speak on stdio: one JSON-RPC message per line.

export const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

/** Call `handle` with each message the client writes to stdin, in order. */
export function onMessages(handle) {
  let buffer = '';
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') handle(JSON.parse(line));
    }
  });
}
