import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { makeTempDir } from './harness.fixture.js';

const dist = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
const core = import.meta.resolve('@toolshed/core');

it('imports and registers without loading nodemailer or libmime; loads nodemailer on the first send', async () => {
  const dir = await makeTempDir();
  try {
    // A module hook that refuses nodemailer and libmime: anything that loads them early fails loudly.
    // (libmime is loaded only for a subject holding an encoded-word, which this one does not.)
    await writeFile(
      join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {
        const name = specifier.split('/')[0];
        if (name === 'nodemailer' || name === 'libmime') throw new Error(name + ' was loaded: ' + specifier);
        return next(specifier, context);
      }`,
    );
    await writeFile(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
    );
    await writeFile(
      join(dir, 'main.mjs'),
      `const { ToolRegistry } = await import(${JSON.stringify(core)});
      const { createSendEmailTool } = await import(${JSON.stringify(dist)});
      const registry = new ToolRegistry({ approve: 'allow-all' }).register(createSendEmailTool(undefined, { cwd: ${JSON.stringify(dir)} }));
      const listed = registry.list().map((t) => t.name);
      const outcome = await registry.dispatch({ name: 'send_email', input: { to: 'a@example.com', subject: 's', body: 'b' } });
      console.log(JSON.stringify({ listed, error: outcome.ok ? null : outcome.error.message }));`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      pathToFileURL(join(dir, 'register.mjs')).href,
      join(dir, 'main.mjs'),
    ]);
    const result = JSON.parse(stdout) as { listed: string[]; error: string | null };
    expect(result.listed).toEqual(['send_email']);
    expect(result.error).toContain('nodemailer was loaded: nodemailer/lib/mail-composer');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
