import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as core from '@toolshed/core';
import { ToolRegistry } from '@toolshed/core';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from './adapters.js';
import { openaiChat, openaiChatStrict } from './openai/chat.js';

// An app's providers may import one copy of core while its registry was made by another
// (a global CLI, npx, a nested install): the second copy is core's built package in a folder of its own.
const coreDir = path.dirname(createRequire(import.meta.url).resolve('@toolshed/core/package.json'));
let folder: string;
let other: typeof import('@toolshed/core');

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-core-copy-'));
  cpSync(path.join(coreDir, 'dist'), path.join(folder, 'dist'), { recursive: true });
  cpSync(path.join(coreDir, 'package.json'), path.join(folder, 'package.json'));
  symlinkSync(path.join(coreDir, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  other = (await import(pathToFileURL(path.join(folder, 'dist', 'index.js')).href)) as typeof import('@toolshed/core');
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

function weather(core: typeof import('@toolshed/core')) {
  return core.defineTool({
    name: 'get_weather',
    description: 'Get the weather for a city.',
    input: v.object({ location: v.string(), unit: v.optional(v.picklist(['c', 'f'])) }),
    run: (input) => ({ location: input.location }),
  });
}

describe('providers with a registry from another copy of core', () => {
  it('is given a registry that is not an instance of the ToolRegistry it imports', () => {
    expect(new other.ToolRegistry()).not.toBeInstanceOf(ToolRegistry);
  });

  it("turns its tools into each API's declarations, the same as for its own copy", () => {
    const theirs = new other.ToolRegistry().register(weather(other));
    const ours = new ToolRegistry().register(weather(core));
    for (const adapter of Object.values(adapters)) {
      expect(adapter.tools(theirs), adapter.format).toEqual(adapter.tools(ours));
    }
    expect(openaiChat.tools(theirs).map((tool) => tool.function.name)).toEqual(['get_weather']);
  });

  it("restores a strict-mode null to a missing key using the other copy's registry", () => {
    const theirs = new other.ToolRegistry().register(weather(other));
    const message = {
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oslo","unit":null}' } }],
    };
    const [call] = openaiChatStrict.parseCalls(message, { tools: theirs });
    expect(call).toMatchObject({ callId: 'call_1', name: 'get_weather', input: { location: 'Oslo' } });
    expect(call!.input).not.toHaveProperty('unit');
  });
});
