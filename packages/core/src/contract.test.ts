import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { checkCodeAgainstManifest, checkManifestField, checkManifestFile, isPluginError, manifestOf, NO_PERMISSIONS } from './contract.js';
import { describeTool } from './definition.js';
import { defineTool } from './tool.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('it did not throw');
}

describe('the light entry @toolshed/core/contract', () => {
  it('loads no valibot and not the main entry (the host imports it at start-up)', () => {
    // A resolve hook writes every module URL that importing the built entry pulls in.
    const hook = `data:text/javascript,${encodeURIComponent(
      `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(\`export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write(r.url + '\\\\n'); return r; }\`));`,
    )}`;
    const entry = pathToFileURL(path.join(dist, 'contract.js')).href;
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        hook,
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(entry)}); console.log(typeof m.checkManifestField);`,
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stdout).toBe('function\n');
    const urls = run.stderr.split('\n').filter((line) => line.startsWith('file:'));
    expect(urls).toContain(entry);
    expect(urls.filter((url) => /valibot|\/dist\/index\.js$|json-schema\.js$/.test(url))).toEqual([]);
  });
});

const echo = defineTool({
  name: 'echo',
  description: 'Echo the text back.',
  input: v.object({ text: v.string() }),
  timeoutMs: 500,
  run: ({ text }) => text,
});

describe('manifest checks', () => {
  it('reads a package.json field, refusing an unsupported apiVersion by field', () => {
    expect(checkManifestField({ apiVersion: 1, tools: ['echo'], manifest: './dist/toolshed.json' })).toEqual({
      apiVersion: 1,
      tools: ['echo'],
      manifest: './dist/toolshed.json',
      permissions: NO_PERMISSIONS,
    });
    const error = thrown(() => checkManifestField({ apiVersion: 2, tools: ['echo'] }));
    expect(isPluginError(error) && [error.phase, error.field]).toEqual(['validate', 'toolshed.apiVersion']);
    const names = thrown(() => checkManifestField({ apiVersion: 1, tools: ['1bad'] }));
    expect(isPluginError(names) && names.field).toBe('toolshed.tools');
  });

  it('checks a manifest file by core definition and timeout rules, naming the entry', () => {
    const field = { apiVersion: 1, tools: ['echo'], permissions: NO_PERMISSIONS };
    const built = { tools: [echo], definitions: [describeTool(echo)] };
    const file = manifestOf(1, built);
    expect(checkManifestFile(JSON.parse(JSON.stringify(file)), field, 'dist/toolshed.json')).toEqual(file);
    const bad = (tool: unknown) =>
      (thrown(() => checkManifestFile({ apiVersion: 1, tools: [tool] }, field, 'dist/toolshed.json')) as Error).message;
    expect(bad({ definition: { ...file.tools[0]!.definition, inputSchema: { type: 'string' } } })).toBe(
      'its manifest dist/toolshed.json does not fit: tools[0] (echo): "inputSchema" must be a JSON Schema of type "object". Rebuild the plugin.',
    );
    expect(bad({ ...file.tools[0], timeoutMs: -1 })).toBe(
      'its manifest dist/toolshed.json does not fit: tools[0] (echo): "timeoutMs" must be a positive number of milliseconds, got -1. Rebuild the plugin.',
    );
  });

  it('compares code with its manifest: names, definitions and timeouts', () => {
    const built = { tools: [echo], definitions: [describeTool(echo)] };
    const manifest = manifestOf(1, built).tools;
    expect(() => checkCodeAgainstManifest(manifest, built)).not.toThrow();
    const slower = thrown(() => checkCodeAgainstManifest([{ ...manifest[0]!, timeoutMs: 900 }], built));
    expect(isPluginError(slower) && [slower.tool, slower.message]).toEqual([
      'echo',
      'its code describes tool "echo" differently from its manifest; rebuild the plugin so the manifest is regenerated.',
    ]);
    const renamed = thrown(() => checkCodeAgainstManifest([{ definition: { ...manifest[0]!.definition, name: 'say' } }], built));
    expect((renamed as Error).message).toBe(
      'its code offers tools [echo] but its manifest lists [say]; rebuild the plugin so the manifest is regenerated.',
    );
  });
});
