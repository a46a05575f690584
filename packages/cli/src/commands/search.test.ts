import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const workspace = fileURLToPath(new URL('../../../..', import.meta.url));
const BUNDLED = {
  '@toolshed/tool-echo': 'plugins/echo',
  '@toolshed/tool-read-file': 'plugins/read-file',
  '@toolshed/tool-send-email': 'plugins/send-email',
};

let project: string;

function toolshed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: project, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

function write(relative: string, content: string | object): void {
  writeFileSync(path.join(project, relative), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function install(name: string, dir: string): void {
  mkdirSync(path.dirname(path.join(project, 'node_modules', name)), { recursive: true });
  symlinkSync(dir, path.join(project, 'node_modules', name), 'dir');
}

beforeEach(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-search-')));
  install('@toolshed/core', path.join(workspace, 'packages/core'));
  install('valibot', realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')));
  for (const [name, dir] of Object.entries(BUNDLED)) install(name, path.join(workspace, dir));
  write('package.json', { name: 'app', private: true, dependencies: Object.fromEntries(Object.keys(BUNDLED).map((name) => [name, '^1'])) });
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const definitions = [
  {
    name: 'read_text_file',
    description: 'Read a whole text file; head or tail for its first or last lines.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'read_multiple_files',
    description: 'Read several files in one call.',
    inputSchema: { type: 'object', properties: { paths: { type: 'array' } } },
  },
  { name: 'git_log', description: 'Show the commit history of a repository.', inputSchema: { type: 'object' } },
];

describe('toolshed search', () => {
  it("ranks the project's tools, best first", async () => {
    const run = await toolshed(['search', 'send', 'an', 'email']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^send_email {2}\d+(\.\d+)?\n {2}Send a plain-text email/);
    // @toolshed/context-embeddings is installed beside @toolshed/context here.
    expect(run.stdout).toMatch(/\nranked by BM25 \(words\) fused with @toolshed\/context-embeddings \(meaning\)\n$/);
  });

  it('--json --limit prints that many hits as JSON', async () => {
    const run = await toolshed(['search', 'read a file', '--json', '--limit', '1']);
    expect(run.code).toBe(0);
    const hits = JSON.parse(run.stdout) as { name: string; score: number; description: string }[];
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ name: 'read_file', score: expect.any(Number), scores: { embedding: expect.any(Number) } });
  });

  it('--definitions searches the definitions in a JSON file instead', async () => {
    write('tools.json', definitions);
    const run = await toolshed(['search', 'read several files at once', '--definitions', 'tools.json', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(run.stdout) as { name: string }[]).map((hit) => hit.name)[0]).toBe('read_multiple_files');
  });

  it('exits 1 saying so when nothing matched', async () => {
    write('tools.json', definitions);
    const run = await toolshed(['search', 'zzzqqq', '--definitions', 'tools.json']);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: 'toolshed search: no tool matched "zzzqqq" among 3; try other words.\n' });
  });

  it('a definitions file it cannot use is a usage error naming the file and the fault', async () => {
    write('broken.json', '[{"name": ');
    write('object.json', { tools: definitions });
    write('nameless.json', [{ description: 'No name.' }]);
    write('twice.json', [definitions[0], definitions[0]]);
    const cases: [string, RegExp][] = [
      ['missing.json', /^toolshed: --definitions missing\.json: cannot read it \(ENOENT\)\.\n$/],
      ['broken.json', /^toolshed: --definitions broken\.json is not valid JSON \(.+\)\.\n$/],
      [
        'object.json',
        /^toolshed: --definitions object\.json must hold a JSON array of tool definitions \(\{name, description, inputSchema\}\)\.\n$/,
      ],
      ['nameless.json', /^toolshed: --definitions nameless\.json: Tool definition \[0\] has no "name" \(a non-empty string\)\.\n$/],
      [
        'twice.json',
        /^toolshed: --definitions twice\.json: Tool definition \[1\]: the name "read_text_file" is given twice; tool names are unique\.\n$/,
      ],
    ];
    for (const [file, message] of cases) {
      const run = await toolshed(['search', 'read', '--definitions', file]);
      expect(run.code, file).toBe(2);
      expect(run.stdout, file).toBe('');
      expect(run.stderr, file).toMatch(message);
    }
  });

  it('a bad --limit is a usage error', async () => {
    const run = await toolshed(['search', 'read', '--limit', '0']);
    expect(run).toMatchObject({ code: 2, stderr: 'toolshed: --limit must be a whole number of at least 1, got "0".\n' });
  });
});
