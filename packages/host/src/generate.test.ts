import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_BIN, Project } from './project.fixture.js';

let project: Project;
afterEach(() => project?.remove());

function runBin(dir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [MANIFEST_BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('toolshed-manifest', () => {
  it('writes every tool definition (with timeoutMs) to the file package.json names', () => {
    project = new Project();
    const dir = project.plugin({
      name: 'tool-a',
      tools: [{ name: 'alpha', description: 'A.' }, { name: 'beta' }],
      manifest: false,
      packageJson: { toolshed: { apiVersion: 1, tools: ['alpha', 'beta'], manifest: './out/m.json' } },
    });
    const source = readFileSync(path.join(dir, 'index.js'), 'utf8').replace('name: "beta",', 'name: "beta", timeoutMs: 1500,');
    writeFileSync(path.join(dir, 'index.js'), source);

    const run = runBin(dir);

    expect(run).toEqual({ code: 0, stdout: 'toolshed-manifest: wrote out/m.json (alpha, beta)\n', stderr: '' });
    expect(JSON.parse(readFileSync(path.join(dir, 'out/m.json'), 'utf8'))).toEqual({
      apiVersion: 1,
      tools: [
        {
          definition: {
            name: 'alpha',
            description: 'A.',
            inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          },
        },
        {
          definition: {
            name: 'beta',
            description: 'The beta tool.',
            inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          },
          timeoutMs: 1500,
        },
      ],
    });
  });

  const failures: { title: string; toolshed: unknown; code?: string; message: string }[] = [
    {
      title: 'no "toolshed" field',
      toolshed: undefined,
      message:
        'tool-a: package.json has no "toolshed" field; add "toolshed": {"apiVersion": 1, "tools": ["my_tool"], "manifest": "./dist/toolshed.json"}.',
    },
    {
      title: 'no manifest path',
      toolshed: { apiVersion: 1, tools: ['echo'] },
      message: 'tool-a: package.json "toolshed.manifest" must name the file to write',
    },
    {
      title: 'tool list differs from the code',
      toolshed: { apiVersion: 1, tools: ['echo', 'other'], manifest: './m.json' },
      message:
        'tool-a: the code offers tools [echo] but package.json "toolshed.tools" lists [echo, other]; make them the same (same order).',
    },
    {
      title: 'apiVersion differs from the code',
      toolshed: { apiVersion: 1, tools: ['echo'], manifest: './m.json' },
      code: 'apiVersion: 1,|apiVersion: 3,',
      message: 'tool-a (validate): it declares apiVersion 3, but this host supports apiVersion 1.',
    },
    {
      title: 'plugin named unlike its package',
      toolshed: { apiVersion: 1, tools: ['echo'], manifest: './m.json' },
      code: 'name: "tool-a",|name: "other-name",',
      message: 'tool-a: the plugin is named "other-name" but the package "tool-a"; use the package name.',
    },
  ];
  for (const failure of failures) {
    it(`fails with exit 1 and says what to fix: ${failure.title}`, () => {
      project = new Project();
      const dir = project.plugin({ name: 'tool-a', manifest: false, packageJson: { toolshed: failure.toolshed } });
      if (failure.code) {
        const [from, to] = failure.code.split('|') as [string, string];
        writeFileSync(path.join(dir, 'index.js'), readFileSync(path.join(dir, 'index.js'), 'utf8').replace(from, to));
      }
      const run = runBin(dir);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`toolshed-manifest: ${failure.message}`);
      expect(() => readFileSync(path.join(dir, 'm.json'))).toThrow(/ENOENT/);
    });
  }

  it('builds with --options for a plugin whose tools need some, and rejects bad flags with exit 2', () => {
    project = new Project();
    const dir = project.plugin({
      name: 'tool-a',
      options: 'v.object({ token: v.string() })',
      manifest: false,
      packageJson: { toolshed: { apiVersion: 1, tools: ['echo'], manifest: './m.json' } },
    });
    expect(runBin(dir).stderr).toBe('toolshed-manifest: tool-a (options): invalid options: option token is required.\n');
    expect(runBin(dir, '--options', '{"token": "x"}').code).toBe(0);
    expect(runBin(dir, '--options', '{oops')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^toolshed-manifest: --options is not valid JSON/),
    });
    expect(runBin(dir, '--bogus')).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--bogus'") });
    execFileSync(process.execPath, [MANIFEST_BIN, '--dir', dir, '--options', '{"token": "y"}']);
  });
});
