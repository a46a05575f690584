import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject } from './project.fixture.js';

const bin = fileURLToPath(new URL('../bin/toolshed.cjs', import.meta.url));
// A project of the tests' own that declares the bundled plugins, like a user's project would.
const projectRoot = fixtureProject();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function toolshed(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { cwd: projectRoot, env: { ...process.env, NO_COLOR: '1', ...options.env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolshed-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('toolshed list', () => {
  it('shows each tool with its description and plugin', async () => {
    const run = await toolshed(['list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^echo {2}@toolshed\/tool-echo@\d+\.\d+\.\d+\n {2}Return the given text unchanged/m);
  });

  it('prints JSON with --json', async () => {
    const run = await toolshed(['list', '--json']);
    const tools = JSON.parse(run.stdout) as { name: string; plugin: string; version: string }[];
    expect(tools.find((t) => t.name === 'echo')).toMatchObject({ plugin: '@toolshed/tool-echo', version: expect.stringMatching(/^\d+\./) });
  });
});

describe('toolshed call', () => {
  it('prints the output and exits 0', async () => {
    const run = await toolshed(['call', 'echo', '{"text":"hello"}']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ text: 'hello' });
  });

  it('prints the whole outcome with --json', async () => {
    const run = await toolshed(['call', 'echo', '{"text":"hello"}', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, name: 'echo', input: { text: 'hello' }, output: { text: 'hello' } });
  });

  it('exits 1 with the message a model would get for invalid input', async () => {
    const run = await toolshed(['call', 'echo', '{"text":123}']);
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'echo: invalid_input: Invalid input for echo.text: expected string, received number\n',
    });
  });

  it('exits 1 with the outcome on stdout under --json', async () => {
    const run = await toolshed(['call', 'echo', '{}', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Invalid input for echo.text: missing required field "text"' },
    });
  });

  it('exits 1 for an unknown tool, naming the tools there are', async () => {
    const run = await toolshed(['call', 'ehco', '{}']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('ehco: unknown_tool: Unknown tool "ehco"; available tools: echo');
  });

  it.each([
    [['call', 'echo', '{"text":'], 'toolshed: the input argument is not valid JSON'],
    [['call'], "error: missing required argument 'tool'"],
    [['call', 'echo', '--bogus'], "error: unknown option '--bogus'"],
    [
      ['call', 'echo', '{}', '--input-file', 'x.json'],
      'toolshed: give the input for echo either as an argument or with --input-file, not both.',
    ],
    [['call', 'echo', '{}', '--timeout', 'soon'], 'toolshed: --timeout must be a positive number of milliseconds, got "soon".'],
    [['call', 'echo', '--input-file', '/nonexistent/input.json'], 'toolshed: cannot read the input file /nonexistent/input.json'],
    [['frobnicate'], "error: unknown command 'frobnicate'"],
  ])('exits 2 for the usage error in %j', async (args, message) => {
    const run = await toolshed(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });

  it('reads the input from a file, or from stdin with -', async () => {
    const file = join(dir, 'input.json');
    await writeFile(file, '{"text":"from a file"}');
    expect(JSON.parse((await toolshed(['call', 'echo', '--input-file', file])).stdout)).toEqual({ text: 'from a file' });
    expect(JSON.parse((await toolshed(['call', 'echo', '-'], { stdin: '{"text":"from stdin"}' })).stdout)).toEqual({ text: 'from stdin' });
    expect(JSON.parse((await toolshed(['call', 'echo', '--input-file', '-'], { stdin: '{"text":"stdin too"}' })).stdout)).toEqual({
      text: 'stdin too',
    });
    const bad = await toolshed(['call', 'echo', '-'], { stdin: 'not json' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('toolshed: stdin is not valid JSON');
  });

  it('appends the events of each call to a transcript as JSON lines', async () => {
    const transcript = join(dir, 'transcript.jsonl');
    await toolshed(['call', 'echo', '{"text":"one"}', '--transcript', transcript]);
    await toolshed(['call', 'echo', '{"text":2}', '--transcript', transcript]);
    const lines = (await readFile(transcript, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // Each run starts with what the tool definitions cost (see context.test.ts).
    expect(lines.map((e) => e.type)).toEqual(['definitions', 'call.start', 'call.end', 'definitions', 'call.start', 'call.end']);
    const events = lines.filter((e) => e.type !== 'definitions');
    expect(events[1].outcome).toMatchObject({ ok: true, output: { text: 'one' } });
    expect(events[3].outcome).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(events[0].callId).toBe(events[1].callId);
  });

  it('an input nested 200,000 deep is refused with its outcome printed as JSON, and the transcript holds the call', async () => {
    const file = join(dir, 'deep.json');
    await writeFile(file, `{"text":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    const transcript = join(dir, 'deep.jsonl');
    const run = await toolshed(['call', 'echo', '--input-file', file, '--json', '--transcript', transcript]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({
      ok: false,
      name: 'echo',
      error: {
        code: 'invalid_input',
        message: 'Invalid input for echo: expected a JSON value, received a value nested too deeply to check',
      },
    });
    expect('input' in outcome).toBe(false);
    const lines = (await readFile(transcript, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((event) => event.type)).toEqual(['definitions', 'call.start', 'call.end']);
    expect(lines[2].outcome).toEqual(outcome);
  });

  describe('a transcript that stops taking writes (a file size limit: Node ignores SIGXFSZ, so a write past it fails)', () => {
    // Under `ulimit -f 2` a file may hold 2,048 bytes. The transcript is filled up to a point,
    // then toolshed runs: one line more than fits fails its write.
    const LIMIT = 2048;
    const limited = (args: string[]) =>
      new Promise<Run>((resolve) => {
        const script = 'ulimit -f 2; exec "$0" "$@"';
        execFile(
          'bash',
          ['-c', script, process.execPath, bin, ...args],
          { cwd: projectRoot, env: { ...process.env, NO_COLOR: '1' } },
          (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
        );
      });
    async function definitionsLine(): Promise<number> {
      const probe = join(dir, 'probe.jsonl');
      await toolshed(['call', 'echo', '{"text":"probe"}', '--transcript', probe]);
      return (await readFile(probe, 'utf8')).split('\n')[0]!.length + 1;
    }

    it("the call's events that did not fit are named after the call, which ran and printed its output; exit 1", async () => {
      const transcript = join(dir, 'limited.jsonl');
      await writeFile(transcript, `${'#'.repeat(LIMIT - (await definitionsLine()) - 1)}\n`);
      const run = await limited(['call', 'echo', '{"text":"kept"}', '--transcript', transcript]);
      expect(JSON.parse(run.stdout)).toEqual({ text: 'kept' });
      expect(run.stderr).toMatch(
        new RegExp(`^toolshed: the transcript ${transcript} is missing call\\.start, call\\.end of this call: EFBIG: file too large`),
      );
      expect(run.code).toBe(1);
      expect((await readFile(transcript, 'utf8')).length).toBe(LIMIT);
    });

    it('a transcript that cannot take even its first line is refused before the call', async () => {
      const transcript = join(dir, 'full.jsonl');
      await writeFile(transcript, `${'#'.repeat(LIMIT - 1)}\n`);
      const run = await limited(['call', 'echo', '{"text":"never"}', '--transcript', transcript]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^toolshed: cannot write the transcript file ${transcript}: EFBIG: file too large`));
    });
  });

  it('refuses a transcript it cannot write, before calling anything', async () => {
    const run = await toolshed(['call', 'echo', '{"text":"x"}', '--transcript', join(dir, 'missing-dir', 't.jsonl')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('toolshed: cannot write the transcript file');
  });
});

describe('toolshed schema', () => {
  it('prints every JSON Schema, as JSON with --json', async () => {
    const run = await toolshed(['schema', '--json']);
    const tools = JSON.parse(run.stdout) as { name: string; inputSchema: unknown }[];
    expect(tools.find((t) => t.name === 'echo')?.inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to return.' } },
      required: ['text'],
    });
  });

  it('prints the schemas readably by default', async () => {
    const run = await toolshed(['schema', 'echo']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('echo: Return the given text unchanged.');
    expect(run.stdout).toContain('"required": [\n    "text"\n  ]');
  });

  it('exits 2 for a tool that does not exist', async () => {
    const run = await toolshed(['schema', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('toolshed schema: unknown tool nope; see toolshed list.');
  });
});

describe('a reader that closes the pipe early', () => {
  // schema prints through process.stdout; a plain list and call print by writes to fd 1 (src/print.ts).
  it.each([[['schema']], [['list', '--json']], [['call', 'echo', '{"text":"hi"}']]])(
    'ends %j quietly, with no EPIPE trace',
    async (args) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
  );
});

describe('--help', () => {
  it.each([[[]], [['list']], [['call']], [['schema']]])('is there for %j', async (command) => {
    const run = await toolshed([...command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: toolshed/);
  });
});

describe('colour', () => {
  // `script` gives the command a real terminal; everything else here runs on pipes.
  it('styles the listing on a terminal, and never on a pipe or with NO_COLOR', async () => {
    const inTerminal = (env: NodeJS.ProcessEnv) =>
      new Promise<string>((resolve, reject) => {
        execFile(
          'script',
          ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} list`, '/dev/null'],
          { cwd: projectRoot, env: { ...process.env, ...env } },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        );
      });
    const bold = '\u001b[1mecho\u001b[22m';
    expect(await inTerminal({ NO_COLOR: '' })).toContain(bold);
    expect(await inTerminal({ NO_COLOR: '1' })).not.toContain('\u001b[');
    const piped = await toolshed(['list'], { env: { NO_COLOR: '' } });
    expect(piped.stdout).toMatch(/^echo {2}@toolshed\/tool-echo@/m);
    expect(piped.stdout).not.toContain('\u001b[');
  });
});
