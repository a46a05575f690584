import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
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
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'app', private: true, dependencies: { '@toolshed/tool-echo': '^1', '@toolshed/tool-send-email': '^1' } }),
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
const page = async () => (shared ??= await openPage());

describe('toolshed inspect in a browser', () => {
  it('lists the project’s plugins and tools', async () => {
    const p = await page();
    await expect(p.locator('[data-plugin="@toolshed/tool-echo"]').textContent()).resolves.toContain('deferred');
    await p.click('nav button[data-view="tools"]');
    expect(await p.locator('#tool-list article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tool')))).toEqual([
      'echo',
      'send_email',
    ]);
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
