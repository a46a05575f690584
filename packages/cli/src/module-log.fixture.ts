/**
 * A `--import` argument for a `toolshed` child that writes every module the process loaded to
 * `log`, one a line: `esm <url>` for each ES module as Node's loader loads it (a module hook),
 * and at exit `cjs <url>` for every CommonJS file in require's cache. The bin's program,
 * host, core/contract and mcp's mount are CommonJS there (their `require` builds), which
 * module hooks do not see on Node 20; plugins and the ES-module-only packages are imported.
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
