// A first start (no cached tools for the entry yet, as for a server `npx -y` still has to install)
// gets longer than later ones, and a start that takes a while is said while it runs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFile, configHash, writeCache } from './cache.js';
import { checkServerConfig } from './config.js';
import { fault, scratch, until, type Scratch } from './mount.fixture.js';
import { mountServer } from './mount.js';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(async () => {
  await s.cleanup();
});

describe('a server slow to start', () => {
  it('is said once, as a first start waiting the longer default, and the wait is given up when the mount closes', async () => {
    const said: string[] = [];
    const mount = mountServer(fault('silent'), { ...s.ctx, progress: (line) => said.push(line) });
    s.mounts.push(mount);
    const listing = mount.refresh().catch((error: Error) => error);
    expect(await until(() => said.length > 0, 400)).toBe(true);
    expect(said).toEqual([
      'MCP server "fault-silent" is still starting (its first start here, no cached tools yet: a server run by `npx -y` may be installing its package); waiting up to 120 s, its "startTimeoutMs".',
    ]);
    await mount.close();
    expect(String(await listing)).toContain('is closed');
  });

  it('with a cache, is said without the first-start words and waits its own startTimeoutMs, then fails naming it', async () => {
    // Tools cached for this very entry: this start is not its first.
    const config = fault('silent', {}, { startTimeoutMs: 6_000 });
    const tool = { name: 'speak', description: 'Repeat the text.', inputSchema: { type: 'object' as const } };
    writeCache(cacheFile(s.ctx.cacheDir, config.name), configHash(checkServerConfig(config, 'test'), s.ctx.cwd), config.name, [tool]);
    const said: string[] = [];
    const mount = mountServer(config, { ...s.ctx, progress: (line) => said.push(line) });
    s.mounts.push(mount);
    expect(mount.cached()?.map((definition) => definition.name)).toEqual(['speak']);
    const error = await mount.refresh().catch((thrown: Error) => thrown);
    expect(String(error)).toContain('did not answer initialize within 6000 ms');
    expect(said).toEqual(['MCP server "fault-silent" is still starting; waiting up to 6 s, its "startTimeoutMs".']);
  });
});
