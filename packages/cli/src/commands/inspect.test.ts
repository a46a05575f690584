import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { crc32, deflateSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/toolshed.cjs', import.meta.url));
const workspace = fileURLToPath(new URL('../../../..', import.meta.url));
// Debian's chromium package (.ci/run installs it): the browser tests fail without it, never skip.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let project: string;
let server: ChildProcess;
let url: string;
let origin: string;
let browser: Browser;

function install(name: string, dir: string): void {
  mkdirSync(path.dirname(path.join(project, 'node_modules', name)), { recursive: true });
  symlinkSync(dir, path.join(project, 'node_modules', name), 'dir');
}

/** A real PNG of the given size: one gray pixel row after another, deflated, each chunk with its CRC. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit grayscale, no interlace
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real WAV: one second of silence, 8-bit mono at 8000 samples a second. */
function wav(): Buffer {
  const samples = 8000;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 0x80)]);
}

const PDF = Buffer.from('%PDF-1.4\n% a fixture, not a whole document\n%%EOF\n', 'latin1');

/**
 * Two plugins of a third party, as a user installs them: tool-slow in the host (progress,
 * cancel, audio and file parts), tool-boxed isolated with a granted read.
 */
function writeFixturePlugins(): void {
  const plugin = (name: string, toolshed: object, code: string) => {
    const dir = path.join(project, 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name,
        version: '0.1.0',
        type: 'module',
        exports: './index.js',
        peerDependencies: { '@toolshed/core': '^1' },
        toolshed: { apiVersion: 1, manifest: './toolshed.json', ...toolshed },
      }),
    );
    writeFileSync(path.join(dir, 'index.js'), code);
    // The tools' schemas, generated as a plugin's build does: an isolated plugin is listed without running its code.
    execFileSync(process.execPath, [path.join(workspace, 'packages/host/bin/toolshed-manifest.js'), '--dir', dir], { stdio: 'pipe' });
  };
  plugin(
    'tool-slow',
    { tools: ['slow_count', 'media_sample'] },
    `import { definePlugin, defineTool, withParts } from '@toolshed/core';
import * as v from 'valibot';
const wait = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
});
export default definePlugin({
  name: 'tool-slow',
  apiVersion: 1,
  tools: [
    defineTool({
      name: 'slow_count',
      description: 'Counts slowly to a number, reporting each step.',
      input: v.object({ to: v.number() }),
      annotations: { readOnly: true },
      timeoutMs: 600000,
      run: async ({ to }, ctx) => {
        for (let step = 1; step <= to; step++) {
          ctx.report({ progress: step, total: to, message: 'step ' + step });
          await wait(100, ctx.signal);
        }
        return { counted: to };
      },
    }),
    defineTool({
      name: 'media_sample',
      description: 'Returns a second of silence and a PDF as content parts.',
      input: v.object({}),
      annotations: { readOnly: true },
      parts: ['audio', 'file'],
      run: () => withParts({ made: 2 }, [
        { type: 'audio', mimeType: 'audio/wav', name: 'silence.wav', data: ${JSON.stringify(wav().toString('base64'))} },
        { type: 'file', mimeType: 'application/pdf', name: 'note.pdf', data: ${JSON.stringify(PDF.toString('base64'))} },
      ]),
    }),
  ],
});
`,
  );
  plugin(
    'tool-boxed',
    { tools: ['boxed_peek'], permissions: { read: ['docs'] } },
    `import { definePlugin, defineTool } from '@toolshed/core';
import * as v from 'valibot';
export default definePlugin({
  name: 'tool-boxed',
  apiVersion: 1,
  tools: [defineTool({ name: 'boxed_peek', description: 'Says hello from its sandbox.', input: v.object({}), annotations: { readOnly: true }, run: () => ({ hello: 'from the box' }) })],
});
`,
  );
  mkdirSync(path.join(project, 'docs'), { recursive: true });
  writeFileSync(
    path.join(project, 'toolshed.config.json'),
    JSON.stringify({ plugins: [{ plugin: 'tool-boxed', isolate: true, grant: { read: ['docs'] } }] }),
  );
}

function toolshed(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [bin, ...args], { cwd: project }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
}

beforeAll(async () => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-inspect-')));
  install('@toolshed/core', path.join(workspace, 'packages/core'));
  install('valibot', realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')));
  install('@toolshed/tool-echo', path.join(workspace, 'plugins/echo'));
  install('@toolshed/tool-send-email', path.join(workspace, 'plugins/send-email'));
  install('@toolshed/tool-read-file', path.join(workspace, 'plugins/read-file'));
  writeFixturePlugins();
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'app',
      private: true,
      dependencies: {
        '@toolshed/tool-echo': '^1',
        '@toolshed/tool-send-email': '^1',
        '@toolshed/tool-read-file': '^1',
        'tool-slow': '^0.1.0',
      },
    }),
  );
  server = spawn(process.execPath, [bin, 'inspect'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const found = /at (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    server.once('exit', (code) => reject(new Error(`toolshed inspect exited with ${code}: ${out}`)));
  });
  origin = new URL(url).origin;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGINT');
  rmSync(project, { recursive: true, force: true });
});

async function openPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-ready]');
  return page;
}

let shared: Page | undefined;

// What the tests read of an <img>, an <audio> and a <progress> (the CLI's types have no DOM).
type Drawn = { naturalWidth: number; naturalHeight: number; complete: boolean };
type Played = { duration: number; readyState: number };
type Bar = { value: number; max: number };
const page = async () => (shared ??= await openPage());

describe('toolshed inspect in a browser', () => {
  it('lists the project’s plugins and tools', async () => {
    const p = await page();
    await expect(p.locator('[data-plugin="@toolshed/tool-echo"]').textContent()).resolves.toContain('deferred');
    await p.click('nav button[data-view="tools"]');
    expect(await p.locator('#tool-list article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tool')))).toEqual([
      'boxed_peek',
      'echo',
      'send_email',
      'read_file',
      'slow_count',
      'media_sample',
    ]);
  });

  it('shows each plugin’s permissions and isolation as toolshed plugins reports them, and warns about a third party with full rights', async () => {
    const p = await page();
    await p.click('nav button[data-view="plugins"]');
    const { plugins } = JSON.parse(await toolshed(['plugins', '--json'])) as {
      plugins: { name: string; isolated: boolean; permissions?: Record<string, string[] | boolean> }[];
    };
    const boxed = plugins.find((plugin) => plugin.name === 'tool-boxed')!;
    expect(boxed).toMatchObject({ isolated: true, permissions: { read: ['docs'] } });
    for (const plugin of plugins) {
      const row = p.locator(`[data-plugin="${plugin.name}"]`);
      await expect(row.locator('[data-isolated]').getAttribute('data-isolated')).resolves.toBe(String(plugin.isolated));
      for (const kind of ['read', 'write', 'net', 'env'] as const) {
        const granted = plugin.permissions?.[kind] as string[] | undefined;
        if (granted === undefined) continue;
        await expect(row.locator(`[data-permission="${kind}"]`).textContent()).resolves.toBe(
          `${kind} ${granted.length > 0 ? granted.join(', ') : '-'}`,
        );
      }
    }
    await expect(p.locator('[data-plugin="tool-boxed"] [data-isolated]').textContent()).resolves.toBe('isolated: granted only these');
    await expect(p.locator('[data-plugin="tool-slow"] [data-full-rights]').textContent()).resolves.toContain(
      'third-party plugin running with your full rights',
    );
    await expect(p.locator('[data-plugin="tool-boxed"] [data-full-rights]').count()).resolves.toBe(0);
    await expect(p.locator('[data-plugin="@toolshed/tool-echo"] [data-full-rights]').count()).resolves.toBe(0);
  });

  it('shows the token cost of each tool with the numbers toolshed context --json prints', async () => {
    const p = await page();
    const report = JSON.parse(await toolshed(['context', '--json'])) as {
      tools: { name: string; total: { tokens: number } }[];
      total: { tokens: number };
    };
    for (const tool of report.tools) {
      await expect(p.locator(`[data-cost-tool="${tool.name}"] [data-tokens]`).getAttribute('data-tokens')).resolves.toBe(
        String(tool.total.tokens),
      );
    }
    await expect(p.locator('[data-cost-total] [data-tokens]').getAttribute('data-tokens')).resolves.toBe(String(report.total.tokens));
  });

  it('calls echo from its form and shows the output', async () => {
    const p = await page();
    await p.click('nav button[data-view="try"]');
    await p.selectOption('#try-tool', 'echo');
    await p.fill('#try-form textarea[name="text"]', 'hello from the page');
    await p.click('#try-call');
    await p.locator('[data-output]', { hasText: '"text": "hello from the page"' }).waitFor();
  });

  it('shows the validation message a model reads for a wrong input', async () => {
    const p = await page();
    await p.click('nav button[data-view="try"]');
    await p.selectOption('#try-tool', 'echo');
    await p.click('#try-json-box summary');
    await p.fill('#try-json', '{"text": 5}');
    await p.click('#try-call');
    await p.locator('[data-code="invalid_input"]').waitFor();
    const message = 'Invalid input for echo.text: expected string, received number';
    await expect(p.locator('[data-error]').textContent()).resolves.toContain(message);
    await expect(p.locator('[data-model]').textContent()).resolves.toContain(message);
    await p.click('#try-json-box summary');
  });

  it('runs send_email only after the in-page confirmation, writing one .eml to the outbox', async () => {
    const p = await page();
    await p.click('nav button[data-view="try"]');
    await p.selectOption('#try-tool', 'send_email');
    await p.fill('#try-form textarea[name="to"]', 'ada@example.com');
    await p.fill('#try-form textarea[name="subject"]', 'Hi');
    await p.fill('#try-form textarea[name="body"]', 'From the inspector.');
    await p.click('#try-call');
    await p.locator('#confirm').waitFor({ state: 'visible' });
    await p.click('#confirm button[value="cancel"]');
    await p.locator('#try-outcome', { hasText: 'Not run' }).waitFor();
    expect(() => readdirSync(path.join(project, '.toolshed/outbox'))).toThrow(/ENOENT/);
    await p.click('#try-call');
    await p.click('#confirm-run');
    await p.locator('[data-code="ok"]').waitFor();
    expect(readdirSync(path.join(project, '.toolshed/outbox')).filter((file) => file.endsWith('.eml'))).toHaveLength(1);
  });

  it('draws an image part read_file returns as an image of its size, never as base64 text', async () => {
    const image = png(7, 5);
    writeFileSync(path.join(project, 'pixel.png'), image);
    const p = await page();
    await p.click('nav button[data-view="try"]');
    await p.selectOption('#try-tool', 'read_file');
    await p.fill('#try-form textarea[name="path"]', 'pixel.png');
    await p.click('#try-call');
    const img = p.locator('#try-outcome img[data-part-image="image/png"]');
    await img.waitFor();
    // Polled from the test: Playwright's waitForFunction polls by eval in the page, which the page's CSP refuses.
    await expect.poll(() => img.evaluate((node) => (node as unknown as Drawn).complete), { timeout: 20_000 }).toBe(true);
    await expect(
      img.evaluate((node) => [(node as unknown as Drawn).naturalWidth, (node as unknown as Drawn).naturalHeight]),
    ).resolves.toEqual([7, 5]);
    await expect(img.getAttribute('src')).resolves.toBe(`data:image/png;base64,${image.toString('base64')}`);
    // Not in the output, the model's message or the whole outcome: the page says the size instead.
    await expect(p.locator('#try-outcome').textContent()).resolves.not.toContain(image.toString('base64').slice(0, 24));
    await expect(p.locator('#try-outcome').textContent()).resolves.toContain(`${image.length} bytes of base64, shown above`);
  });

  it('plays an audio part and offers a file part as a download with its type and size', async () => {
    const p = await page();
    await p.click('nav button[data-view="try"]');
    await p.selectOption('#try-tool', 'media_sample');
    await p.click('#try-call');
    const audio = p.locator('#try-outcome audio[data-part-audio="audio/wav"]');
    await audio.waitFor();
    await expect(audio.getAttribute('controls')).resolves.toBe('');
    // One second of audio: the browser decoded the part's bytes.
    await expect
      .poll(() => audio.evaluate((node) => (node as unknown as Played).readyState), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(1);
    await expect(audio.evaluate((node) => (node as unknown as Played).duration)).resolves.toBeCloseTo(1, 2);
    const link = p.locator('#try-outcome a[data-part-download="application/pdf"]');
    await expect(link.textContent()).resolves.toBe(`Download note.pdf (application/pdf, ${PDF.length} bytes)`);
    const [download] = await Promise.all([p.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('note.pdf');
    expect(readFileSync((await download.path())!)).toEqual(PDF);
    await expect(p.locator('#try-outcome').textContent()).resolves.not.toContain(wav().toString('base64').slice(0, 24));
  });

  it('shows a running tool’s progress as it comes, and Cancel aborts it with the aborted outcome', async () => {
    const p = await page();
    await p.click('nav button[data-view="try"]');
    await p.selectOption('#try-tool', 'slow_count');
    await p.fill('#try-form input[name="to"]', '1000');
    await p.click('#try-call');
    // Reports arrive while the call runs: the page shows the latest with its bar and message. Read in
    // one go, as a loaded machine may draw several reports between two looks.
    const latest = p.locator('#try-progress [data-progress]');
    await expect.poll(async () => Number(await latest.getAttribute('data-progress')), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    const shown = await p.locator('#try-progress').evaluate((node) => {
      const bar = node.querySelector('progress') as unknown as Bar;
      return {
        at: Number(node.querySelector('[data-progress]')!.getAttribute('data-progress')),
        text: node.textContent,
        bar: [bar.value, bar.max],
      };
    });
    expect(shown.text).toContain(`${shown.at} of 1000: step ${shown.at}`);
    expect(shown.bar).toEqual([shown.at, 1000]);
    await expect(p.locator('[data-code]').count()).resolves.toBe(0);
    await p.click('#try-cancel');
    await p.locator('[data-code="aborted"]').waitFor();
    await expect(p.locator('[data-error]').textContent()).resolves.toContain('slow_count');
    await expect(p.locator('#try-call').isDisabled()).resolves.toBe(false);
    const reports = Number(await p.locator('#try-progress [data-progress]').getAttribute('data-progress'));
    await p.waitForTimeout(300);
    // Nothing more came: the call stopped.
    await expect(p.locator('#try-progress [data-progress]').getAttribute('data-progress')).resolves.toBe(String(reports));
  });

  it('lists the ranked tools with the score of each ranker the search API names', async () => {
    const p = await page();
    await p.click('nav button[data-view="search"]');
    await p.fill('#search-query', 'send an email message');
    await p.click('#search-form button[type="submit"]');
    await p.locator('[data-hit]').first().waitFor();
    const api = (await p.evaluate(() => fetch('/api/search?q=send%20an%20email%20message').then((r) => r.json()))) as {
      rankers: string[];
      hits: { name: string; scores: Record<string, number> }[];
    };
    // This workspace has @toolshed/context-embeddings installed: search fuses BM25 with the meaning table.
    expect(api.rankers).toEqual(['bm25', 'embedding']);
    await expect(p.locator('#search-hits th').allTextContents()).resolves.toEqual(['#', 'tool', 'bm25', 'embedding', 'description']);
    await expect(p.locator('[data-hit]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-hit')))).resolves.toEqual(
      api.hits.map((hit) => hit.name),
    );
    expect(api.hits[0]!.name).toBe('send_email');
    await expect(p.locator('[data-hit="send_email"] [data-score="bm25"]').textContent()).resolves.toBe(
      api.hits[0]!.scores.bm25!.toFixed(3),
    );
    await expect(p.locator('[data-hit="send_email"] [data-score="embedding"]').textContent()).resolves.toBe(
      api.hits[0]!.scores.embedding!.toFixed(3),
    );
  });

  it('draws a second ranker as a column of its own when the search API names one', async () => {
    const p = await (await page()).context().newPage();
    await p.goto(origin);
    await p.waitForSelector('body[data-ready]');
    // Only BM25 exists today: the answer is replaced to show the page takes its columns from the API.
    await p.route('**/api/search?*', (route) =>
      route.fulfill({
        json: {
          rankers: ['bm25', 'meaning'],
          hits: [
            { name: 'echo', score: 1, scores: { bm25: 1.5, meaning: 0.25 } },
            { name: 'send_email', score: 0.5, scores: { bm25: 0.5 } },
          ],
        },
      }),
    );
    await p.click('nav button[data-view="search"]');
    await p.fill('#search-query', 'anything');
    await p.click('#search-form button[type="submit"]');
    await p.locator('[data-hit]').first().waitFor();
    await expect(p.locator('#search-hits th').allTextContents()).resolves.toEqual(['#', 'tool', 'bm25', 'meaning', 'description']);
    await expect(p.locator('[data-hit="echo"] [data-score]').allTextContents()).resolves.toEqual(['1.500', '0.250']);
    await expect(p.locator('[data-hit="send_email"] [data-score]').allTextContents()).resolves.toEqual(['0.500', '-']);
    await p.close();
  });

  it('renders a transcript file as a timeline, filterable by tool and outcome', async () => {
    const file = path.join(project, 'calls.jsonl');
    await toolshed(['call', 'echo', '{"text":"one"}', '--transcript', file]);
    await toolshed(['call', 'echo', '{"text":2}', '--transcript', file]).catch(() => undefined);
    const p = await page();
    await p.click('nav button[data-view="transcripts"]');
    await p.setInputFiles('#transcript-file', file);
    // The page reads the file asynchronously: wait for the second call to be drawn.
    await p.locator('#transcript-calls li').nth(1).waitFor();
    await expect(
      p.locator('#transcript-calls li').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-call-code'))),
    ).resolves.toEqual(['ok', 'invalid_input']);
    await p.selectOption('#transcript-outcome', 'ok');
    await expect(p.locator('#transcript-calls li').count()).resolves.toBe(1);
  });
});

describe('toolshed inspect --open', () => {
  it('opens the printed URL with $BROWSER', async () => {
    const opened = path.join(project, 'opened.txt');
    const browserScript = path.join(project, 'browser.sh');
    writeFileSync(browserScript, `#!/bin/sh\necho "$1" > ${JSON.stringify(opened)}\n`, { mode: 0o755 });
    const child = spawn(process.execPath, [bin, 'inspect', '--open'], { cwd: project, env: { ...process.env, BROWSER: browserScript } });
    const printed = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk;
        const found = /at (http:\/\/\S+)/.exec(out);
        if (found) resolve(found[1]!);
      });
    });
    for (let tries = 0; tries < 100 && !existsSync(opened); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await expect(exited).resolves.toBe(0);
    expect(readFileSync(opened, 'utf8').trim()).toBe(printed);
  });
});

function raw(options: {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: options.path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('toolshed inspect refuses', () => {
  const call = JSON.stringify({ name: 'echo', input: { text: 'x' } });

  it('a request without the token', async () => {
    const answer = await raw({ path: '/api/tools' });
    expect(answer.status).toBe(401);
    expect(answer.body).toContain('Open the URL that toolshed inspect printed');
  });

  it('a second use of the token, a foreign Origin and a rebinding Host, even with the session cookie', async () => {
    // The browser above used the token already.
    expect((await raw({ path: new URL(url).pathname + new URL(url).search })).status).toBe(401);
    const context = await browser.newContext();
    const cookies = (await (await page()).context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    await context.close();
    const headers = { cookie: cookies, 'content-type': 'application/json' };
    expect((await raw({ path: '/api/tools', headers })).status).toBe(200);
    const foreign = await raw({ path: '/api/call', method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body: call });
    expect(foreign.status).toBe(403);
    const none = await raw({ path: '/api/call', method: 'POST', headers, body: call });
    expect(none.status).toBe(403);
    const rebound = await raw({ path: '/api/tools', headers: { ...headers, host: `evil.example:${new URL(url).port}` } });
    expect(rebound.status).toBe(421);
    const ours = await raw({ path: '/api/call', method: 'POST', headers: { ...headers, origin }, body: call });
    expect(ours.status).toBe(200);
    expect(ours.body).toContain('"ok":true');
    // Nothing runs on a GET.
    expect((await raw({ path: '/api/call', headers })).status).toBe(404);
  });
});
