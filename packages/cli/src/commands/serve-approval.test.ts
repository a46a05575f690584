import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const require = createRequire(import.meta.url);
const CORE_DIR = path.dirname(realpathSync(require.resolve('@toolshed/core/package.json')));
const VALIBOT_DIR = realpathSync(path.join(CORE_DIR, 'node_modules', 'valibot'));

// A tool that needs approval, which records each run in a file the test reads.
const PLUGIN = `import { appendFileSync } from 'node:fs';
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';

export default definePlugin({
  name: 'mail-fixture',
  apiVersion: 1,
  tools: [
    defineTool({
      name: 'send_note',
      description: 'Send a note to someone outside.',
      input: v.object({ to: v.string() }),
      annotations: { openWorld: true },
      run: ({ to }) => {
        appendFileSync(new URL('./sent.log', import.meta.url), to + '\\n');
        return 'sent to ' + to;
      },
    }),
  ],
});
`;

let project: string;
let client: Client | undefined;

beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-serve-approval-')));
  mkdirSync(path.join(project, 'node_modules', '@toolshed'), { recursive: true });
  symlinkSync(CORE_DIR, path.join(project, 'node_modules', '@toolshed', 'core'), 'dir');
  symlinkSync(VALIBOT_DIR, path.join(project, 'node_modules', 'valibot'), 'dir');
  mkdirSync(path.join(project, 'mail-fixture'));
  writeFileSync(
    path.join(project, 'mail-fixture', 'package.json'),
    JSON.stringify({
      name: 'mail-fixture',
      version: '1.0.0',
      type: 'module',
      exports: './index.js',
      peerDependencies: { '@toolshed/core': '^1' },
    }),
  );
  writeFileSync(path.join(project, 'mail-fixture', 'index.js'), PLUGIN);
  writeFileSync(path.join(project, 'toolshed.config.json'), JSON.stringify({ plugins: ['./mail-fixture'] }));
});

afterEach(async () => {
  await client?.close();
  client = undefined;
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

async function serve(...args: string[]): Promise<Client> {
  client = new Client({ name: 'serve-approval-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', ...args], cwd: project, stderr: 'pipe' }),
  );
  return client;
}

function sent(): string {
  try {
    return readFileSync(path.join(project, 'mail-fixture', 'sent.log'), 'utf8');
  } catch {
    return '';
  }
}

describe('toolshed serve and approval', { timeout: 30_000 }, () => {
  it('denies a call to an open-world tool without --yes; the tool never runs', async () => {
    const mcp = await serve();
    const result = await mcp.callTool({ name: 'send_note', arguments: { to: 'a@example.com' } });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'send_note needs approval (it is open-world) and this harness has no approval hook, so the call was not made. ' +
            'Do not retry it; tell the user what you wanted send_note to do, or take another approach.',
        },
      ],
    });
    expect(sent()).toBe('');
    // The client still sees the hint it asks its user by.
    expect((await mcp.listTools()).tools[0]!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('runs it with --yes, leaving the asking to the MCP client', async () => {
    const mcp = await serve('--yes');
    expect(await mcp.callTool({ name: 'send_note', arguments: { to: 'b@example.com' } })).toEqual({
      content: [{ type: 'text', text: 'sent to b@example.com' }],
    });
    expect(sent()).toBe('b@example.com\n');
  });
});
