import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A `--import` argument for a `toolshed` child that writes every module the process loaded to
 * `log`, one a line: `esm <url>` for each ES module as Node's loader loads it (a module hook),
 * and at exit `cjs <url>` for every CommonJS file in require's cache (the bin, and CommonJS
 * dependencies such as ajv), which module hooks do not see on Node 20.
 */
export function moduleLogImport(log: string): string {
  const hook = `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, 'esm ' + url + '\\n'); return next(url, context); }
  `)}`;
  return `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from 'node:fs';
    import { createRequire, register } from 'node:module';
    import { pathToFileURL } from 'node:url';
    register(${JSON.stringify(hook)});
    const cache = createRequire(process.cwd() + '/').cache;
    process.on('exit', () => {
      const files = Object.keys(cache).map((file) => 'cjs ' + pathToFileURL(file).href + '\\n');
      appendFileSync(${JSON.stringify(log)}, files.join(''));
    });
  `)}`;
}

/** The modules a child run with `moduleLogImport(log)` loaded, by kind. */
export function loadedModules(text: string): { esm: string[]; cjs: string[] } {
  const lines = text.split('\n').filter(Boolean);
  const of = (kind: string) => lines.filter((line) => line.startsWith(`${kind} `)).map((line) => line.slice(kind.length + 1));
  return { esm: of('esm'), cjs: of('cjs') };
}

/**
 * A `--require` preload for a `toolshed` child that writes to `log`, at exit, each of Node's own
 * modules the process loaded after the preload ran (`process.moduleLoadList`): what the command
 * itself pulled in, such as `NativeModule module` or `NativeModule crypto`. A preload, not
 * `--import`: that would load node:module and the ES module loader itself. Returns its file.
 */
export function builtinsLogPreload(dir: string, log: string): string {
  const file = path.join(dir, 'builtins-log.cjs');
  writeFileSync(
    file,
    `const before = new Set(process.moduleLoadList);
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.filter((name) => !before.has(name)).join('\\n')));
`,
  );
  return file;
}
