import type * as mount from '@toolshed/mcp/mount';
import { describe, expectTypeOf, it } from 'vitest';
import type { MountRuntime } from './mcp/runtime.js';
import { createHost, type HostConfig, type HostOptions, type McpServerEntry, type McpServerState } from './index.js';

// The host<->mcp boundary is declared once, in @toolshed/mcp/mount: host's entry and state types
// are that package's, and the runtime host loads is that entry.
type ListEntry<T> = Extract<NonNullable<T>, readonly unknown[]>[number];

describe('an mcpServers entry', () => {
  it("is @toolshed/mcp's McpServerEntry, in createHost's options and in the config file", () => {
    expectTypeOf<McpServerEntry>().toEqualTypeOf<mount.McpServerEntry>();
    expectTypeOf<ListEntry<HostOptions['mcpServers']>>().toEqualTypeOf<mount.McpServerEntry>();
    expectTypeOf<ListEntry<HostConfig['mcpServers']>>().toEqualTypeOf<mount.McpServerEntry>();
    expectTypeOf<McpServerState>().toEqualTypeOf<mount.McpServerState>();
  });

  it('takes every field @toolshed/mcp checks, and no other', () => {
    void createHost({
      mcpServers: [
        { name: 'files', command: 'npx', startTimeoutMs: 60_000, readOnlyTools: ['read'], env: { TOKEN: { env: 'TOKEN' } } },
        { name: 'remote', url: 'http://127.0.0.1:1/mcp', transport: 'sse', headers: { Authorization: { env: 'AUTH' } } },
      ],
    });
    void createHost({ mcpServers: { files: { command: 'npx', startTimeoutMs: 60_000 } } });
    // @ts-expect-error a field no entry has
    void createHost({ mcpServers: [{ name: 'files', command: 'npx', colour: 'blue' }] });
    // @ts-expect-error "sse" is a transport of a server reached by url
    void createHost({ mcpServers: [{ name: 'files', command: 'npx', type: 'sse' }] });
  });
});

describe('the mount runtime', () => {
  it('is what @toolshed/mcp/mount exports', () => {
    expectTypeOf<typeof mount>().toMatchTypeOf<MountRuntime>();
  });
});
