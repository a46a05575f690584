import type { Command } from 'commander';
import { loadTools } from '../host.js';
import { numberFlag } from '../input.js';
import { loadInspector } from '../load-inspector.js';
import { UsageError } from '../usage-error.js';
import { untilStopped } from '../until-stopped.js';

interface InspectOptions {
  host: string;
  port: string;
  open?: boolean;
}

/** The browser named by $BROWSER, else the system's opener; a failure to open is said, never fatal. */
function openBrowser(url: string): void {
  const { spawn } = process.getBuiltinModule('node:child_process');
  const [command, ...args] = process.env.BROWSER
    ? [process.env.BROWSER, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  const child = spawn(command!, args, { stdio: 'ignore', detached: true });
  child.on('error', (error) =>
    process.stderr.write(`toolshed: could not open a browser (${command}: ${error.message}); open the URL above yourself.\n`),
  );
  child.unref();
}

export function registerInspect(program: Command): void {
  program
    .command('inspect')
    .description(
      'Open a local web page to see every plugin and tool, their schemas and token costs, try a tool, search, and read transcripts. ' +
        'Tools that need approval run only after you confirm them in the page.',
    )
    .option('--host <address>', 'the address to listen on; anything but loopback lets other machines reach the page', '127.0.0.1')
    .option('--port <port>', 'the port (0 picks a free one)', '0')
    .option('--open', 'open the page in your browser ($BROWSER, else the system default)')
    .action(async (options: InspectOptions) => {
      const port = numberFlag(
        '--port',
        options.port,
        (n) => Number.isInteger(n) && n >= 0 && n <= 65_535,
        'a whole number from 0 to 65535',
      )!;
      const { startInspector } = await loadInspector();
      // No approval hook: core denies tools that need approval unless the page's confirmation allows the one call.
      const { host } = await loadTools();
      let inspector: Awaited<ReturnType<typeof startInspector>>;
      try {
        inspector = await startInspector(host, { host: options.host, port });
      } catch (error) {
        throw new UsageError(`cannot listen on ${options.host}:${port}: ${(error as Error).message}`);
      }
      process.stdout.write(`toolshed: inspecting ${host.registry.list().length} tools at ${inspector.url}\n`);
      if (!inspector.loopback) {
        process.stderr.write(
          `toolshed: warning: ${inspector.host} is reachable from other machines; anyone there with the URL can run these tools. Use 127.0.0.1 unless that is what you want.\n`,
        );
      }
      if (options.open) openBrowser(inspector.url);
      await untilStopped();
      await inspector.close();
      await host.close();
    });
}
