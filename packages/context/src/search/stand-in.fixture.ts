import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineTool, ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';

/** One request the stand-in model server received. */
export interface Received {
  path: string;
  body: Record<string, unknown>;
}

/**
 * A model API on 127.0.0.1 that answers each request with the next scripted
 * reply (as JSON, or as server-sent events for `{events}`) and keeps what was sent, so a real SDK client can be driven through a
 * tool loop without a network.
 */
export interface StandIn {
  origin: string;
  received: Received[];
  script(...replies: unknown[]): void;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const received: Received[] = [];
  let replies: unknown[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      const reply = replies.shift();
      if (typeof reply === 'object' && reply !== null && 'events' in reply) {
        // A streamed reply: each event as a server-sent event's data.
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of (reply as { events: unknown[] }).events) response.write(`data: ${JSON.stringify(event)}\n\n`);
        response.end();
        return;
      }
      response.writeHead(reply === undefined ? 500 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply ?? { error: { message: 'The stand-in has no reply scripted for this request.' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    script: (...next) => {
      received.length = 0;
      replies = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Tools held back until a search finds them. `get_weather` records each city
 * it is asked about, so a test sees that its handler really ran.
 */
export function weatherRegistry(): { registry: ToolRegistry; asked: string[] } {
  const asked: string[] = [];
  const registry = new ToolRegistry({ exposure: { mode: 'search' } });
  registry.register(
    defineTool({
      name: 'get_weather',
      description: 'Current weather and forecast for a city.',
      input: v.object({ city: v.pipe(v.string(), v.description('The city, e.g. Oslo.')) }),
      annotations: { readOnly: true },
      run: ({ city }) => {
        asked.push(city);
        return { city, forecast: 'sunny' };
      },
    }),
  );
  const other = (name: string, description: string) =>
    defineTool({ name, description, input: v.object({ path: v.string() }), annotations: { readOnly: true }, run: () => name });
  registry.register(other('read_file', 'Read a text file of the project.'));
  registry.register(other('git_log', 'Show the commit history of a git repository.'));
  registry.register(other('list_directory', 'List the files and folders in a directory.'));
  return { registry: registry.seal(), asked };
}
