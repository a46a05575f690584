import { defineTool, ToolError, ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';

/** Real tools for the tests: what each handler received, so a test can prove it ran or did not. */
export function makeRegistry() {
  const received: { name: string; input: unknown }[] = [];

  const getWeather = defineTool({
    name: 'get_weather',
    description: 'Current weather for a city.',
    input: v.object({
      location: v.pipe(v.string(), v.description('City and country, e.g. Paris, France')),
      unit: v.optional(v.picklist(['celsius', 'fahrenheit']), 'celsius'),
    }),
    annotations: { readOnly: true, openWorld: true, title: 'Weather' },
    run: (input) => {
      received.push({ name: 'get_weather', input });
      return { location: input.location, unit: input.unit, temperature: 21 };
    },
  });

  const search = defineTool({
    name: 'search',
    description: 'Search documents.',
    input: v.object({
      query: v.pipe(v.string(), v.minLength(1)),
      limit: v.optional(v.number(), 10),
      filter: v.optional(
        v.object({
          tags: v.optional(v.array(v.string())),
          author: v.nullish(v.string()),
        }),
      ),
      sort: v.optional(v.array(v.object({ field: v.string(), descending: v.optional(v.boolean()) }))),
    }),
    output: v.object({ hits: v.array(v.string()) }),
    run: (input) => {
      received.push({ name: 'search', input });
      return { hits: [`result for ${input.query}`] };
    },
  });

  const deleteFile = defineTool({
    name: 'delete_file',
    description: 'Delete a file in the project.',
    input: v.object({ path: v.string() }),
    annotations: { destructive: true, idempotent: true },
    run: (input) => {
      received.push({ name: 'delete_file', input });
      throw new ToolError('denied', `delete_file may not delete ${input.path}: it is outside the project. Pick a path inside the project.`);
    },
  });

  const ping = defineTool({
    name: 'ping',
    description: 'Answer pong.',
    input: v.object({}),
    output: v.string(),
    run: (input) => {
      received.push({ name: 'ping', input });
      return 'pong';
    },
  });

  const registry = new ToolRegistry().register(getWeather).register(search).register(deleteFile).register(ping);
  return { registry, received };
}
