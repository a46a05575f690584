import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README's examples, run as written (the HTTP one on a free port instead of 3000).
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!);
const stdioExample = examples.find((code) => code.includes('serveStdio('))!;
const httpExample = examples.find((code) => code.includes('serveHttp('))!;

let dir: string;
beforeAll(() => {
  // Inside the package, so that `@toolshed/mcp` resolves to this package itself.
  dir = mkdtempSync(path.join(packageDir, '.readme-'));
  writeFileSync(path.join(dir, 'stdio.mjs'), stdioExample);
  writeFileSync(path.join(dir, 'http.mjs'), httpExample.replace('port: 3000', 'port: 0'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README examples', { timeout: 30_000 }, () => {
  it('has both examples', () => {
    expect(stdioExample).toBeDefined();
    expect(httpExample).toContain('port: 3000');
  });

  it('serves the calculator over stdio', async () => {
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(dir, 'stdio.mjs')], stderr: 'pipe' }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'calculator', version: '1.0.0' });
      const { tools } = await client.listTools();
      expect(tools[0]).toMatchObject({ name: 'add', annotations: { readOnlyHint: true, idempotentHint: true } });
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 });
    } finally {
      await client.close();
    }
  });

  it('serves the countdown over HTTP: progress, cancellation, and SIGINT to stop', async () => {
    const child = spawn(process.execPath, [path.join(dir, 'http.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /MCP server at (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`the example exited with ${code}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const cancel = new AbortController();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await expect(
      client.callTool({ name: 'countdown', arguments: { from: 60 } }, undefined, {
        signal: cancel.signal,
        onprogress: (progress) => {
          seen.push(progress);
          cancel.abort('enough');
        },
      }),
    ).rejects.toThrow();
    expect(seen[0]).toEqual({ progress: 0, total: 60, message: '60 to go' });

    const invalid = await client.callTool({ name: 'countdown', arguments: { from: 0 } });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as { text: string }[])[0]!.text).toMatch(/^Invalid input for countdown\.from: /);
    await client.close();

    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
