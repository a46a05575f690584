// The screenshots in packages/inspector/README.md, made again from the page as it is:
// `pnpm build`, then `pnpm --filter @toolshed/cli screenshots:inspector`. It runs `toolshed
// inspect` in a scratch project with the bundled plugins (read_file isolated) and drives Debian's
// chromium (CHROMIUM_PATH, else /usr/bin/chromium) through playwright-core at 1100x700.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const workspace = fileURLToPath(new URL('../../..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/toolshed.cjs', import.meta.url));
const out = path.join(workspace, 'packages/inspector/screenshots');
const project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-screenshots-')));

function install(name, dir) {
  mkdirSync(path.dirname(path.join(project, 'node_modules', name)), { recursive: true });
  symlinkSync(dir, path.join(project, 'node_modules', name), 'dir');
}

install('@toolshed/core', path.join(workspace, 'packages/core'));
install('valibot', realpathSync(path.join(workspace, 'packages/core/node_modules/valibot')));
const plugins = { '@toolshed/tool-echo': 'echo', '@toolshed/tool-send-email': 'send-email', '@toolshed/tool-read-file': 'read-file' };
for (const [name, dir] of Object.entries(plugins)) install(name, path.join(workspace, 'plugins', dir));
writeFileSync(
  path.join(project, 'package.json'),
  JSON.stringify({ name: 'app', private: true, dependencies: Object.fromEntries(Object.keys(plugins).map((name) => [name, '^1'])) }),
);
writeFileSync(
  path.join(project, 'toolshed.config.json'),
  JSON.stringify({ plugins: [{ plugin: '@toolshed/tool-read-file', isolate: true, grant: { read: ['.'] } }] }),
);
const toolshed = (args) => execFileSync(process.execPath, [bin, ...args], { cwd: project, stdio: 'pipe' });
const transcript = path.join(project, 'calls.jsonl');
toolshed(['call', 'echo', '{"text":"hello"}', '--transcript', transcript]);
try {
  toolshed(['call', 'echo', '{"text":2}', '--transcript', transcript]);
} catch {
  // Refused as invalid_input, as wanted: the timeline shows a failed call.
}

const server = spawn(process.execPath, [bin, 'inspect'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const url = await new Promise((resolve, reject) => {
    let printed = '';
    server.stdout.on('data', (chunk) => {
      printed += chunk;
      const found = /at (http:\/\/\S+)/.exec(printed);
      if (found) resolve(found[1]);
    });
    server.once('exit', (code) => reject(new Error(`toolshed inspect exited with ${code}: ${printed}`)));
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]');
  const shot = (name, fullPage = false) => page.screenshot({ path: path.join(out, `${name}.png`), fullPage });
  const view = (name) => page.click(`nav button[data-view="${name}"]`);

  await shot('plugins');
  await view('tools');
  await shot('tools');

  // A real image for read_file to return: the token chart, drawn by the page itself.
  await page.locator('#cost-chart').screenshot({ path: path.join(project, 'chart.png') });
  await view('try');
  await page.selectOption('#try-tool', 'read_file');
  await page.fill('#try-form textarea[name="path"]', 'chart.png');
  await page.click('#try-call');
  await page.locator('#try-outcome img').waitFor();
  // The whole page: the image is drawn below the output.
  await shot('try', true);

  await view('search');
  await page.fill('#search-query', 'send a message to someone');
  await page.click('#search-form button[type="submit"]');
  await page.locator('[data-hit]').first().waitFor();
  await shot('search');

  await view('transcripts');
  await page.setInputFiles('#transcript-file', transcript);
  await page.locator('#transcript-calls li').nth(1).waitFor();
  await shot('transcripts');
  process.stdout.write(`Wrote plugins, tools, try, search and transcripts.png to ${out}\n`);
} finally {
  await browser.close();
  server.kill('SIGINT');
  rmSync(project, { recursive: true, force: true });
}
