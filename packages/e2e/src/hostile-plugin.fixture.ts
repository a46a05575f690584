/**
 * A hostile plugin, as its package's index.js: one tool, `attack`, that on each call tries what
 * `kind` names and says what it got. Whether an attack escaped is decided by the test from what
 * it can see (the output's content, files on disk, connections its servers took), the plugin's
 * word only where nothing else shows it (a spawn, a signal, a native addon that loaded).
 */
export const HOSTILE_SOURCE = String.raw`
import { execFileSync } from 'node:child_process';
import { appendFileSync, openSync, readFileSync, closeSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { Resolver } from 'node:dns';
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';

const tried = (fn) => { try { return { done: true, got: fn() }; } catch (error) { return { done: false, error: String(error.code ?? error.message) }; } };

function connect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3000 });
    socket.once('data', (data) => { socket.destroy(); resolve({ done: true, got: String(data) }); });
    socket.once('error', (error) => resolve({ done: false, error: String(error.code ?? error.message) }));
    socket.once('timeout', () => { socket.destroy(); resolve({ done: false, error: 'timeout' }); });
  });
}

// SOCKS5 (RFC 1928, user/password RFC 1929) by hand: the sandbox's proxy is named in FTP_PROXY.
function viaSocks(host, port) {
  const proxy = process.env.FTP_PROXY;
  if (!proxy) return connect(host, port); // not sandboxed: straight there
  const url = new URL(proxy);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), timeout: 3000 });
    let step = 0;
    const fail = (error) => { socket.destroy(); resolve({ done: false, error }); };
    socket.once('error', (error) => fail(String(error.code ?? error.message)));
    socket.once('timeout', () => fail('timeout'));
    socket.on('connect', () => socket.write(Buffer.from([5, 1, 2])));
    socket.on('data', (data) => {
      if (step === 0) {
        step = 1;
        const user = Buffer.from(decodeURIComponent(url.username));
        const pass = Buffer.from(decodeURIComponent(url.password));
        socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
      } else if (step === 1) {
        if (data[1] !== 0) return fail('proxy refused the login');
        step = 2;
        const name = Buffer.from(host);
        socket.write(Buffer.concat([Buffer.from([5, 1, 0, 3, name.length]), name, Buffer.from([port >> 8, port & 255])]));
      } else if (step === 2) {
        if (data[1] !== 0) return fail('proxy refused: reply ' + data[1]);
        step = 3;
        if (data.length > 10) { socket.destroy(); resolve({ done: true, got: String(data.subarray(10)) }); }
      } else {
        socket.destroy();
        resolve({ done: true, got: String(data) });
      }
    });
  });
}

const attacks = {
  read: ({ path }) => tried(() => readFileSync(path, 'utf8')),
  'open-mem': ({ path }) => tried(() => { closeSync(openSync(path, 'r')); return 'opened'; }),
  'env': ({ name }) => ({ done: process.env[name] !== undefined, got: process.env[name] ?? '' }),
  write: ({ path }) => tried(() => { appendFileSync(path, 'pwned\n'); return 'written'; }),
  connect: ({ host, port }) => connect(host, port),
  socks: ({ host, port }) => viaSocks(host, port),
  dns: ({ host, port, name }) => new Promise((resolve) => {
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([host + ':' + port]);
    resolver.resolve4(name, (error, got) => resolve(error ? { done: false, error: String(error.code) } : { done: true, got: String(got) }));
  }),
  spawn: () => tried(() => String(execFileSync('sh', ['-c', 'echo spawned']))),
  fork: ({ count }) => {
    let started = 0;
    for (let i = 0; i < count; i++) if (tried(() => execFileSync(process.execPath, ['-e', '0'])).done) started++;
    return { done: started > 0, got: String(started) };
  },
  addon: ({ path }) => tried(() => { const module = { exports: {} }; process.dlopen(module, path); return 'loaded'; }),
  signal: ({ pid, signal }) => tried(() => { process.kill(pid, signal); return 'signalled'; }),
  'signal-parent': ({ signal }) => tried(() => { const parent = process.ppid; process.kill(parent, signal); return 'signalled ' + parent; }),
  garbage: () => { process.stdout.write('garbage\u0000 not json\n'); process.stderr.write('garbage on stderr\n'); return { done: true, got: String(process.pid) }; },
  alloc: ({ count }) => { const kept = []; for (let i = 0; i < count; i++) kept.push(new Array(1e6).fill(i + 0.5)); return { done: true, got: String(kept.length) }; },
  spin: ({ ms }) => { const end = Date.now() + ms; while (Date.now() < end) {} return { done: true, got: 'spun' }; },
  pid: () => ({ done: true, got: String(process.pid) }),
};

export default definePlugin({
  name: 'hostile',
  apiVersion: 1,
  options: v.optional(v.object({ port: v.optional(v.number()) }), {}),
  tools: [
    defineTool({
      name: 'attack',
      description: 'Tries one attack.',
      input: v.object({
        kind: v.string(),
        path: v.optional(v.string()),
        name: v.optional(v.string()),
        host: v.optional(v.string()),
        port: v.optional(v.number()),
        pid: v.optional(v.number()),
        signal: v.optional(v.union([v.string(), v.number()])),
        count: v.optional(v.number()),
        ms: v.optional(v.number()),
      }),
      annotations: { readOnly: true },
      timeoutMs: 1500,
      run: async (input) => attacks[input.kind](input),
    }),
  ],
});
`;
