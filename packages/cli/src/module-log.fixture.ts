import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How to run a `toolshed` child so that it writes every module it loaded to `log`, one a line:
 * `esm <url>` for each ES module as Node's loader stores it, and at exit `cjs <url>` for every
 * CommonJS file in require's cache (the bin, and CommonJS dependencies such as ajv). The bin
 * require()s the program, and on Node 20 module hooks do not see what require() loads, so the
 * ES modules are read from the loader's own debug lines (NODE_DEBUG=esm), which the child
 * writes to the log instead of its stderr.
 */
export function moduleLog(log: string): { nodeArgs: string[]; env: NodeJS.ProcessEnv } {
  // A CommonJS preload: it patches stderr before the ES module loader writes its first line.
  const preload = `${log}.preload.cjs`;
  writeFileSync(
    preload,
    `const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (!/^ESM \\d+: /.test(text)) return write(chunk, ...rest);
  const stored = /^ESM \\d+: Storing (\\S+) /.exec(text);
  if (stored) appendFileSync(${JSON.stringify(log)}, 'esm ' + stored[1] + '\\n');
  return true;
};
process.on('exit', () => {
  const files = Object.keys(require.cache).map((file) => 'cjs ' + pathToFileURL(file).href + '\\n');
  appendFileSync(${JSON.stringify(log)}, files.join(''));
});
`,
  );
  return { nodeArgs: ['--require', preload], env: { NODE_DEBUG: 'esm' } };
}

/** The modules a child run with `moduleLog(log)` loaded, by kind. */
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
