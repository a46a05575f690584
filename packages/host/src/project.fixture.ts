import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
/** The workspace's built core and the valibot it uses: fixture plugins import both, as installed plugins would. */
const CORE_DIR = path.dirname(realpathSync(require.resolve('@toolshed/core/package.json')));
const VALIBOT_DIR = realpathSync(path.join(CORE_DIR, 'node_modules', 'valibot'));

export const MANIFEST_BIN = fileURLToPath(new URL('../bin/toolshed-manifest.js', import.meta.url));

export interface ToolSpec {
  name: string;
  description?: string;
  /** JS expression for the tool's output given `input` and `options`. */
  output?: string;
}

export interface PluginSpec {
  name: string;
  version?: string;
  tools?: ToolSpec[];
  /** JS source of a valibot options schema (with `v` in scope). */
  options?: string;
  apiVersion?: number;
  /** Extra fields merged into package.json ("toolshed" may be replaced). */
  packageJson?: Record<string, unknown>;
  /** Replace the generated index.js entirely. */
  code?: string;
  /** Write dist/toolshed.json with the real generator (default true). */
  manifest?: boolean;
  /** Options for toolshed-manifest --options, for plugins that need some to build their tools. */
  manifestOptions?: Record<string, unknown>;
  /** Write a marker file when the module is imported. */
  marker?: boolean;
}

export function pluginSource(spec: PluginSpec): string {
  const tools = (spec.tools ?? [{ name: 'echo' }]).map(
    (tool) => `defineTool({
    name: ${JSON.stringify(tool.name)},
    description: ${JSON.stringify(tool.description ?? `The ${tool.name} tool.`)},
    input: v.object({ text: v.string() }),
    run: (input) => (${tool.output ?? '{ text: input.text }'}),
  })`,
  );
  return `import { writeFileSync } from 'node:fs';
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';
${spec.marker ? `writeFileSync(new URL('./imported.marker', import.meta.url), 'imported');\n` : ''}
export default definePlugin({
  name: ${JSON.stringify(spec.name)},
  apiVersion: ${spec.apiVersion ?? 1},
  ${spec.options ? `options: ${spec.options},` : ''}
  tools: (options) => [${tools.join(', ')}],
});
`;
}

export class Project {
  readonly dir: string;

  constructor() {
    this.dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolshed-host-')));
    const scope = path.join(this.dir, 'node_modules', '@toolshed');
    mkdirSync(scope, { recursive: true });
    symlinkSync(CORE_DIR, path.join(scope, 'core'), 'dir');
    symlinkSync(VALIBOT_DIR, path.join(this.dir, 'node_modules', 'valibot'), 'dir');
  }

  write(relative: string, content: string | object): string {
    const file = path.join(this.dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
    return file;
  }

  packageJson(deps: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }): this {
    this.write('package.json', { name: 'fixture-project', version: '0.0.0', private: true, type: 'module', ...deps });
    return this;
  }

  config(config: object | string): this {
    this.write('toolshed.config.json', config);
    return this;
  }

  /** Write a plugin package at node_modules/<name> (or at `at`, relative to the project) and build its manifest. */
  plugin(spec: PluginSpec, at = path.join('node_modules', spec.name)): string {
    const dir = path.join(this.dir, at);
    const toolNames = (spec.tools ?? [{ name: 'echo' }]).map((tool) => tool.name);
    this.write(path.join(at, 'package.json'), {
      name: spec.name,
      version: spec.version ?? '1.0.0',
      type: 'module',
      exports: { '.': './index.js', './package.json': './package.json' },
      peerDependencies: { '@toolshed/core': '^1' },
      toolshed: {
        apiVersion: spec.apiVersion ?? 1,
        tools: toolNames,
        ...(spec.manifest === false ? {} : { manifest: './dist/toolshed.json' }),
      },
      ...spec.packageJson,
    });
    this.write(path.join(at, 'index.js'), spec.code ?? pluginSource(spec));
    if (spec.manifest !== false && spec.code === undefined) {
      // In a child process, as a plugin's build runs it: importing here would cache the module in the test.
      execFileSync(
        process.execPath,
        [MANIFEST_BIN, '--dir', dir, ...(spec.manifestOptions ? ['--options', JSON.stringify(spec.manifestOptions)] : [])],
        { stdio: 'pipe' },
      );
      rmSync(path.join(dir, 'imported.marker'), { force: true });
    }
    return dir;
  }

  /** Link an installed package into the project's node_modules. */
  link(name: string, target: string): void {
    const at = path.join(this.dir, 'node_modules', name);
    mkdirSync(path.dirname(at), { recursive: true });
    symlinkSync(realpathSync(target), at, 'dir');
  }

  /** Generate a plugin's manifest by its code, as its build would (for a plugin written with `code`). */
  buildManifest(at: string): void {
    execFileSync(process.execPath, [MANIFEST_BIN, '--dir', path.join(this.dir, at)], { stdio: 'pipe' });
  }

  imported(at: string): boolean {
    return existsSync(path.join(this.dir, at, 'imported.marker'));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
