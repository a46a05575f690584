import type { Command } from 'commander';
import { loadTools } from '../host.js';
import { liveTools } from '../live-tools.js';
import { loadMcp } from '../load-mcp.js';
import { servedSearch } from '../tool-search.js';
import { UsageError } from '../usage-error.js';
import { untilStopped } from '../until-stopped.js';
import { version } from '../version.js';

function plural(count: number): string {
  return `${count} tool${count === 1 ? '' : 's'}`;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      "Serve your plugins' tools to MCP clients (Claude Desktop, Cursor, the MCP inspector) over stdio, " +
        'or over Streamable HTTP with --http. Tools that need approval (destructive, open-world) are denied unless --yes ' +
        'says the MCP client asks its user before each call.',
    )
    .option('--http <[host:]port>', 'serve at http://HOST:PORT/mcp instead of stdio (HOST defaults to 127.0.0.1; port 0 picks a free one)')
    .option('-y, --yes', 'run tools that need approval (destructive, open-world): the MCP client asks its user before each call')
    .option(
      '--stateless',
      'with --http: no sessions, every POST served on its own, so replicas can stand behind a load balancer without affinity',
    )
    .option(
      '--allow-origin <origin...>',
      "with --http: web origins allowed to call besides this machine's own, e.g. https://app.example (any other Origin gets 403)",
    )
    .option(
      '--tool-search',
      'list only a tool_search tool (and exposure.alwaysLoaded) up front; each search makes its matches available and tells the client the list changed',
    )
    .action(async (options: { http?: string; stateless?: boolean; allowOrigin?: string[]; yes?: boolean; toolSearch?: boolean }) => {
      // The MCP SDK is slow to import: only this command pays for it.
      const mcp = await loadMcp();
      let address: { host?: string; port: number } | undefined;
      if (options.http !== undefined) {
        try {
          address = mcp.parseListenAddress(options.http);
        } catch (error) {
          throw new UsageError(`--http: ${(error as Error).message}`);
        }
      } else if (options.stateless || options.allowOrigin) {
        throw new UsageError(`${options.stateless ? '--stateless' : '--allow-origin'} applies to HTTP only: add --http [HOST:]PORT.`);
      }
      const allowedOrigins = (options.allowOrigin ?? []).map((text) => {
        try {
          return mcp.parseOrigin(text);
        } catch (error) {
          throw new UsageError(`--allow-origin: ${(error as Error).message}`);
        }
      });
      // Without --yes the registry keeps core's default: a client set to approve every call
      // on its own (or a person who never meant to serve send_email) cannot make it run.
      const { registry, host } = await loadTools(options.yes ? { approve: 'allow-all' } : {});
      const search = await servedSearch(registry, options.toolSearch === true, options.stateless === true);
      const count = plural(registry.list().length) + (search ? ` (${search.upFront} listed until a tool_search finds more)` : '');
      // Without a search, the tools a mounted MCP server adds or drops while connected are passed on.
      const live = search ? undefined : liveTools(host);
      const info = { name: 'toolshed', version, toolSearch: search ? search.make : () => live! };

      if (!address) {
        // stdout carries the protocol; anything for people goes to stderr.
        const service = await mcp.serveStdio(registry, info);
        process.stderr.write(`toolshed: serving ${count} over stdio\n`);
        await service.closed;
        await host.close();
        return;
      }
      const service = await mcp.serveHttp(registry, { ...info, ...address, stateless: options.stateless ?? false, allowedOrigins });
      process.stdout.write(`toolshed: serving ${count} at ${service.url}${options.stateless ? ' (stateless)' : ''}\n`);
      // The same rule as the server's own Host-header check: the one in @toolshed/mcp.
      if (!mcp.isLoopback(service.host)) {
        process.stderr.write(
          `toolshed: warning: ${service.host} is reachable from other machines, and this server has no authentication; ` +
            'anyone who can reach it can call these tools. Use 127.0.0.1 unless that is what you want.\n',
        );
      }
      await untilStopped();
      await service.close();
      await host.close();
    });
}
