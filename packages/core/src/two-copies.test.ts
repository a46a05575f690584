import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isToolRegistry, ToolRegistry } from './registry.js';
import { isToolError, ToolError } from './tool-error.js';

// A global CLI, npx or a nested install loads two copies of core in one process. This suite
// is the first copy (the source); the second is the built package copied to a folder of its own.
const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, '..');
let folder: string;
let other: typeof import('./index.js');

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-core-copy-'));
  cpSync(path.join(packageDir, 'dist'), path.join(folder, 'dist'), { recursive: true });
  cpSync(path.join(packageDir, 'package.json'), path.join(folder, 'package.json'));
  // The copy's own dependencies (valibot) resolve from core's installed ones.
  symlinkSync(path.join(packageDir, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  other = (await import(pathToFileURL(path.join(folder, 'dist', 'index.js')).href)) as typeof import('./index.js');
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('two copies of core in one process', () => {
  it('loads a second copy whose classes are distinct from the first', () => {
    expect(other.ToolError).not.toBe(ToolError);
    expect(new other.ToolError('denied', 'x')).not.toBeInstanceOf(ToolError);
    expect(new other.ToolRegistry()).not.toBeInstanceOf(ToolRegistry);
  });

  it.each(['denied', 'invalid_input', 'execution_failed'] as const)(
    "keeps the code %s a handler chose with the other copy's ToolError",
    async (code) => {
      const issues = [{ path: ['path'], at: 'guarded.path', message: 'guarded.path: expected a path inside the project' }];
      const tool = other.defineTool({
        name: 'guarded',
        description: 'Refuse every call.',
        input: v.object({ path: v.string() }),
        run: () => {
          throw new other.ToolError(code, 'guarded may not read "/etc/passwd": it is outside the project.', { issues });
        },
      });
      const outcome = await new ToolRegistry().register(tool).dispatch({ name: 'guarded', input: { path: '/etc/passwd' } });
      expect(outcome).toMatchObject({
        ok: false,
        error: { code, message: 'guarded may not read "/etc/passwd": it is outside the project.', issues },
      });
    },
  );

  it('recognises a subclass of either copy, and nothing else, as a ToolError', () => {
    class Refusal extends other.ToolError {}
    expect(isToolError(new Refusal('denied', 'no'))).toBe(true);
    expect(other.isToolError(new ToolError('denied', 'no'))).toBe(true);
    expect(isToolError(Object.assign(new Error('no'), { name: 'ToolError', code: 'denied' }))).toBe(false);
    expect(isToolError({ code: 'denied', message: 'no' })).toBe(false);
    expect(isToolError(null)).toBe(false);
    expect(isToolError('denied')).toBe(false);
  });

  it('still reports anything else a handler throws as execution_failed', async () => {
    const tool = other.defineTool({
      name: 'broken',
      description: 'Throw a look-alike of ToolError.',
      input: v.object({}),
      run: () => {
        throw Object.assign(new Error('disk on fire'), { name: 'ToolError', code: 'denied' });
      },
    });
    const outcome = await new ToolRegistry().register(tool).dispatch({ name: 'broken', input: {} });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'execution_failed', message: 'broken failed: disk on fire' } });
  });

  it("recognises the other copy's registry as a registry, and a look-alike as not", () => {
    expect(isToolRegistry(new other.ToolRegistry())).toBe(true);
    expect(other.isToolRegistry(new ToolRegistry())).toBe(true);
    expect(isToolRegistry({ list: () => [], get: () => undefined })).toBe(false);
    expect(isToolRegistry([])).toBe(false);
    expect(isToolRegistry(undefined)).toBe(false);
  });
});
