import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import {
  defineTool,
  definePlugin,
  type AnyPlugin,
  type AnyTool,
  type Plugin,
  type PluginHostInfo,
  type Tool,
  type ToolContext,
  type WithParts,
  withParts,
} from './index.js';

// What the README sells, checked by the compiler (vitest --typecheck runs this file through tsc):
// defineTool types the handler from its schemas, definePlugin types the tools factory from its
// options schema. Each `@ts-expect-error` is a mistake that must not compile; if it ever does,
// the directive is unused and the check fails.

const Input = v.object({
  path: v.string(),
  // A default makes the handler's field required; a transform changes its type.
  limit: v.optional(v.number(), 100),
  mode: v.picklist(['text', 'base64']),
  since: v.pipe(
    v.string(),
    v.transform((text) => new Date(text)),
  ),
});
const Output = v.object({ lines: v.array(v.string()), hasMore: v.boolean() });

describe('defineTool', () => {
  it('types the handler input as what the input schema outputs (defaults filled, transforms applied)', () => {
    defineTool({
      name: 'read',
      description: 'Read lines.',
      input: Input,
      run(input, ctx) {
        expectTypeOf(input).toEqualTypeOf<{ path: string; limit: number; mode: 'text' | 'base64'; since: Date }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return undefined;
      },
    });
  });

  it('refuses a handler that reads a field the schema does not have, or misuses one', () => {
    defineTool({
      name: 'read',
      description: 'Read lines.',
      input: Input,
      run(input) {
        // @ts-expect-error `pathh` is not a field of the input schema
        void input.pathh;
        // @ts-expect-error `limit` is a number after its default, not a string
        input.limit.toUpperCase();
        return undefined;
      },
    });
  });

  it('checks what the handler returns against the output schema, sync or async', () => {
    const tool = defineTool({
      name: 'read',
      description: 'Read lines.',
      input: Input,
      output: Output,
      run: () => ({ lines: ['a'], hasMore: false }),
    });
    expectTypeOf(tool).toEqualTypeOf<Tool<typeof Input, typeof Output>>();
    type Lines = { lines: string[]; hasMore: boolean };
    expectTypeOf(tool.run).returns.toEqualTypeOf<Lines | WithParts<Lines> | Promise<Lines | WithParts<Lines>>>();

    defineTool({ name: 'read', description: 'Read lines.', input: Input, output: Output, run: async () => ({ lines: [], hasMore: true }) });
    // @ts-expect-error hasMore must be a boolean
    defineTool({ name: 'read', description: 'Read lines.', input: Input, output: Output, run: () => ({ lines: [], hasMore: 'no' }) });
    // @ts-expect-error lines is missing
    defineTool({ name: 'read', description: 'Read lines.', input: Input, output: Output, run: async () => ({ hasMore: true }) });
  });

  it('checks the output beside content parts against the output schema, and the parts against their shape', () => {
    const image = { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } as const;
    defineTool({
      name: 'shot',
      description: 'A screenshot.',
      input: Input,
      output: Output,
      parts: ['image'],
      run: () => withParts({ lines: [], hasMore: false }, [image]),
    });
    // @ts-expect-error the output beside the parts must still match the output schema
    defineTool({ name: 'shot', description: 'A screenshot.', input: Input, output: Output, run: () => withParts({ lines: 1 }, [image]) });
    // @ts-expect-error an inline part needs its MIME type
    withParts(null, [{ type: 'image', data: 'AAAA' }]);
    // @ts-expect-error parts are images, audio or files
    withParts(null, [{ type: 'video', mimeType: 'video/mp4', data: 'AAAA' }]);
  });

  it('lets a tool without an output schema return anything', () => {
    const Empty = v.object({});
    const tool = defineTool({ name: 'anything', description: 'Return whatever.', input: Empty, run: () => new Map([[1, 2]]) });
    expectTypeOf(tool).toEqualTypeOf<Tool<typeof Empty, undefined>>();
    expectTypeOf(tool.run).returns.toEqualTypeOf<unknown>();
  });

  it('takes only a valibot schema as input, and a tool must have a handler', () => {
    // @ts-expect-error a JSON Schema object is not a valibot schema
    defineTool({ name: 'raw', description: 'Raw.', input: { type: 'object', properties: {} }, run: () => 'x' });
    // @ts-expect-error run is required
    defineTool({ name: 'idle', description: 'No handler.', input: v.object({}) });
  });

  it('gives tools that go into a plain list (AnyTool) and into a plugin', () => {
    const tools: AnyTool[] = [
      defineTool({ name: 'a', description: 'A.', input: Input, output: Output, run: () => ({ lines: [], hasMore: false }) }),
    ];
    expectTypeOf(tools).items.toEqualTypeOf<AnyTool>();
  });
});

describe('definePlugin', () => {
  const Options = v.object({ root: v.optional(v.string(), '.'), maxLines: v.number(), deny: v.optional(v.array(v.string())) });

  it("types the tools factory's options as what the options schema outputs, and the host info", () => {
    const plugin = definePlugin({
      name: 'files',
      apiVersion: 1,
      options: Options,
      tools: (options, host) => {
        expectTypeOf(options).toEqualTypeOf<{ root: string; maxLines: number; deny?: string[] | undefined }>();
        expectTypeOf(host).toEqualTypeOf<PluginHostInfo>();
        return [];
      },
    });
    expectTypeOf(plugin).toEqualTypeOf<Plugin<typeof Options>>();
    // Any typed plugin is still an AnyPlugin (what hosts and lists of plugins take).
    expectTypeOf(plugin).toExtend<AnyPlugin>();
  });

  it('refuses a factory that reads an option the schema does not have', () => {
    definePlugin({
      name: 'files',
      apiVersion: 1,
      options: Options,
      tools: (options) => {
        // @ts-expect-error maxLinez is not an option
        void options.maxLinez;
        return [];
      },
    });
  });

  it('gives a plugin without an options schema `undefined` options', () => {
    definePlugin({
      name: 'plain',
      apiVersion: 1,
      tools: (options) => {
        expectTypeOf(options).toEqualTypeOf<undefined>();
        return [];
      },
    });
  });

  it('an optional options object with a default is never undefined in the factory', () => {
    definePlugin({
      name: 'defaults',
      apiVersion: 1,
      options: v.optional(v.strictObject({ verbose: v.optional(v.boolean()) }), {}),
      tools: (options) => {
        expectTypeOf(options).toEqualTypeOf<{ verbose?: boolean | undefined }>();
        return [];
      },
    });
  });

  it('takes tools as a list or a function returning a list (or a promise of one), and nothing else', () => {
    const echo = defineTool({ name: 'echo', description: 'Echo.', input: v.object({ text: v.string() }), run: (input) => input.text });
    definePlugin({ name: 'list', apiVersion: 1, tools: [echo] });
    definePlugin({ name: 'async', apiVersion: 1, options: Options, tools: async () => [echo] });
    // @ts-expect-error a tool name is not a tool
    definePlugin({ name: 'names', apiVersion: 1, tools: ['echo'] });
    // @ts-expect-error the factory must return tools
    definePlugin({ name: 'nothing', apiVersion: 1, tools: () => echo });
    // @ts-expect-error apiVersion is required
    definePlugin({ name: 'unversioned', tools: [echo] });
  });
});
