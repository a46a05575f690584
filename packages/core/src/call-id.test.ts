import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;

/** The call id of one call made without one, in a process of its own (the built core, as harnesses load it). */
function callIdFromNewProcess(): string {
  const script = `import * as v from 'valibot';
import { ToolRegistry, defineTool } from ${JSON.stringify(dist)};
const echo = defineTool({ name: 'echo', description: 'Echo.', input: v.object({}), run: () => ({}) });
const outcome = await new ToolRegistry().register(echo).dispatch({ name: 'echo', input: {} });
process.stdout.write(outcome.callId);`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
  });
}

describe('call ids made by the registry', () => {
  it('differ between processes by their random prefix, so transcripts and ledgers of several processes never share one', () => {
    const ids = Array.from({ length: 12 }, callIdFromNewProcess);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{8}_1$/);
    expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBe(ids.length);
  });
});
