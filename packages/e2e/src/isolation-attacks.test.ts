import { execFileSync } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '@toolshed/host';
import type { Outcome } from '@toolshed/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_SOURCE } from './hostile-plugin.fixture.js';

// The attacks, each tried by a hostile plugin installed beside echo and send_email:
// once isolated (each must be refused or contained: 0 escapes) and once in the host's process
// (each must get through, which shows the check for it can fail).
const require = createRequire(import.meta.url);
const modules = (name: string) => path.dirname(realpathSync(require.resolve(`${name}/package.json`)));
const coreDir = modules('@toolshed/core');
const hostDir = modules('@toolshed/host');
const MARK = `toolshed-attack-${process.pid}`;

let project: string;
let home: string;
let coreTarget: string;
const servers: Server[] = [];
let dns: UdpSocket;
const seen = { granted: 0, ungranted: 0, dns: [] as string[] };
let grantedPort = 0;
let ungrantedPort = 0;
let dnsPort = 0;

function listen(banner: string, count: () => void): Promise<number> {
  const server = createServer((socket) => {
    count();
    socket.end(banner);
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

function link(name: string, target: string): void {
  const at = path.join(project, 'node_modules', name);
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(realpathSync(target), at, 'dir');
}

function write(relative: string, content: string | object): string {
  const file = path.join(project, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** A native addon that loads in a plain Node process (rolldown's, beside host). */
function addonFile(): string {
  const scope = path.join(path.dirname(modules('rolldown')), '@rolldown');
  for (const dir of readdirSync(scope)) {
    const file = readdirSync(path.join(scope, dir)).find((name) => name.endsWith('.node'));
    if (file) return path.join(scope, dir, file);
  }
  throw new Error(`no native addon found under ${scope}`);
}

beforeAll(async () => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-attacks-')));
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolshed-attacks-home-')));
  mkdirSync(path.join(home, '.ssh'));
  writeFileSync(path.join(home, '.ssh/id_ed25519'), `-----BEGIN OPENSSH PRIVATE KEY----- ${MARK}`);
  grantedPort = await listen('granted-banner', () => seen.granted++);
  ungrantedPort = await listen(`ungranted-banner ${MARK}`, () => seen.ungranted++);
  dns = createSocket('udp4');
  dns.on('message', (message) => seen.dns.push(message.toString('latin1')));
  await new Promise<void>((resolve) => dns.bind(0, '127.0.0.1', resolve));
  dnsPort = dns.address().port;

  write('package.json', { name: 'attacked', private: true, type: 'module' });
  write('.env', `OPENAI_API_KEY=${MARK}\n`);
  write('.toolshed/send-email/calls.jsonl', '');
  link('@toolshed/core', coreDir);
  link('valibot', path.join(coreDir, 'node_modules', 'valibot'));
  link('@toolshed/tool-echo', modules('@toolshed/tool-echo'));
  link('@toolshed/tool-send-email', modules('@toolshed/tool-send-email'));
  write('node_modules/hostile/package.json', {
    name: 'hostile',
    version: '1.0.0',
    type: 'module',
    exports: { '.': './index.js' },
    peerDependencies: { '@toolshed/core': '^1' },
    toolshed: {
      apiVersion: 1,
      tools: ['attack'],
      manifest: './dist/toolshed.json',
      permissions: { write: ['out'], net: [{ host: '127.0.0.1', port: { option: 'port' } }] },
    },
  });
  write('node_modules/hostile/index.js', HOSTILE_SOURCE);
  execFileSync(process.execPath, [path.join(hostDir, 'bin', 'toolshed-manifest.js'), '--dir', path.join(project, 'node_modules/hostile')]);
  coreTarget = path.join(project, 'node_modules/@toolshed/core', `attack-${process.pid}.txt`);
  process.env.SMTP_PASSWORD = `smtp-${MARK}`;
  process.env.TOOLSHED_ATTACK_MARK = MARK;
});

afterAll(async () => {
  delete process.env.SMTP_PASSWORD;
  delete process.env.TOOLSHED_ATTACK_MARK;
  for (const server of servers) server.close();
  dns?.close();
  rmSync(coreTarget, { force: true });
  rmSync(project, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function hostFor(isolate: boolean): Promise<Host> {
  return createHost({
    cwd: project,
    config: {
      plugins: [
        '@toolshed/tool-echo',
        ['@toolshed/tool-send-email', { outbox: 'outbox' }],
        { plugin: 'hostile', isolate, options: { port: grantedPort }, grant: { write: ['out'], net: [`127.0.0.1:${grantedPort}`] } },
      ],
    },
  });
}

type Output = { done: boolean; got?: string; error?: string };
type Attack = {
  name: string;
  input: (isolated: boolean) => Record<string, unknown>;
  /** Whether it got through, judged from the outcome and what the test can see. */
  escaped: (outcome: Outcome, output: Output | undefined) => boolean;
};

const got = (output: Output | undefined, text: string) => output?.done === true && String(output.got).includes(text);
const done = (output: Output | undefined) => output?.done === true;
const changed = (file: string, before: string) => existsSync(file) && readFileSync(file, 'utf8') !== before;

const ATTACKS: Attack[] = [
  {
    name: 'read ~/.ssh/id_ed25519',
    input: () => ({ kind: 'read', path: path.join(home, '.ssh/id_ed25519') }),
    escaped: (_, o) => got(o, MARK),
  },
  { name: "read the project's .env", input: () => ({ kind: 'read', path: path.join(project, '.env') }), escaped: (_, o) => got(o, MARK) },
  {
    name: "read the host's /proc/<pid>/environ",
    input: () => ({ kind: 'read', path: `/proc/${process.pid}/environ` }),
    // What the host started with (later changes to process.env do not show there).
    escaped: (_, o) => got(o, `PATH=${process.env.PATH}`),
  },
  {
    name: "open the host's /proc/<pid>/mem",
    input: () => ({ kind: 'open-mem', path: `/proc/${process.pid}/mem` }),
    escaped: (_, o) => done(o),
  },
  {
    name: "read send_email's SMTP password from the environment",
    input: () => ({ kind: 'env', name: 'SMTP_PASSWORD' }),
    escaped: (_, o) => got(o, MARK),
  },
  {
    name: 'write outside the project',
    input: () => ({ kind: 'write', path: path.join(home, 'outside.txt') }),
    escaped: () => existsSync(path.join(home, 'outside.txt')),
  },
  {
    name: 'write into node_modules/@toolshed/core',
    input: () => ({ kind: 'write', path: coreTarget }),
    escaped: () => existsSync(coreTarget),
  },
  {
    name: "write into send_email's ledger",
    input: () => ({ kind: 'write', path: path.join(project, '.toolshed/send-email/calls.jsonl') }),
    escaped: () => changed(path.join(project, '.toolshed/send-email/calls.jsonl'), ''),
  },
  {
    name: 'connect to an ungranted port on 127.0.0.1',
    input: () => ({ kind: 'connect', host: '127.0.0.1', port: ungrantedPort }),
    escaped: (_, o) => got(o, MARK),
  },
  {
    name: 'connect to a granted host on another port (through the proxy)',
    input: () => ({ kind: 'socks', host: '127.0.0.1', port: ungrantedPort }),
    escaped: (_, o) => got(o, MARK),
  },
  {
    name: 'connect to a host name not granted',
    input: () => ({ kind: 'socks', host: 'localhost', port: ungrantedPort }),
    escaped: (_, o) => got(o, MARK),
  },
  {
    name: 'a DNS lookup of a name carrying data',
    input: () => ({ kind: 'dns', host: '127.0.0.1', port: dnsPort, name: `${MARK}.exfil.test` }),
    escaped: () => seen.dns.some((packet) => packet.includes(MARK.split('-').pop()!)),
  },
  { name: 'spawn sh', input: () => ({ kind: 'spawn' }), escaped: (_, o) => got(o, 'spawned') },
  { name: 'fork repeatedly', input: () => ({ kind: 'fork', count: 3 }), escaped: (_, o) => done(o) },
  { name: 'load a native addon', input: () => ({ kind: 'addon', path: addonFile() }), escaped: (_, o) => done(o) },
  {
    // Isolated, the real thing; in the host's process only signal 0 (would it be allowed?), which kills nothing.
    name: 'signal the host',
    input: (isolated) => ({ kind: 'signal', pid: process.pid, signal: isolated ? 'SIGKILL' : 0 }),
    escaped: (_, o) => done(o),
  },
  {
    name: 'signal its parent (process.kill(process.ppid))',
    input: (isolated) => ({ kind: 'signal-parent', signal: isolated ? 'SIGKILL' : 0 }),
    // In the host's process its parent is the host's; isolated, the sandbox's own init, inside it.
    escaped: (_, o) => o?.got === `signalled ${process.ppid}`,
  },
  {
    name: 'write garbage to its stdout and stderr',
    input: () => ({ kind: 'garbage' }),
    // Written into the host's own streams when it runs in the host's process.
    escaped: (_, o) => got(o, String(process.pid)),
  },
  {
    name: 'allocate without bound',
    input: () => ({ kind: 'alloc', count: 48 }),
    escaped: (_, o) => done(o),
  },
  {
    name: 'spin forever (past its timeout)',
    input: () => ({ kind: 'spin', ms: 4000 }),
    escaped: (outcome) => outcome.ok,
  },
];

async function attackAll(isolate: boolean): Promise<{ escapes: string[]; outcomes: Map<string, Outcome> }> {
  const host = await hostFor(isolate);
  const escapes: string[] = [];
  const outcomes = new Map<string, Outcome>();
  try {
    expect(host.plugins.find((plugin) => plugin.name === 'hostile')).toMatchObject({ status: 'loaded', isolated: isolate });
    for (const attack of ATTACKS) {
      const outcome = await host.registry.dispatch({ name: 'attack', input: attack.input(isolate) });
      outcomes.set(attack.name, outcome);
      const said = outcome.ok
        ? JSON.stringify(outcome.output).slice(0, 160)
        : `${outcome.error.code}: ${outcome.error.message.slice(0, 300)}`;
      console.log(`${isolate ? 'isolated' : 'in the host'}: ${attack.name}: ${said}`);
      const output = outcome.ok ? (outcome.output as Output) : undefined;
      if (attack.escaped(outcome, output)) escapes.push(attack.name);
      // The plugin itself answers again (a new process if the attack ended its own), so the next attack starts clean.
      // A new process starts the sandbox again, which on a loaded machine takes longer than the tool's own 1.5 s;
      // timed out, it would be stopped in turn and the next attack would start it yet again.
      const again = await host.registry.dispatch({ name: 'attack', input: { kind: 'pid' } }, { timeoutMs: 30_000 });
      expect(again, `the plugin answers after "${attack.name}": ${JSON.stringify(again)}`).toMatchObject({ ok: true });
      // The host and the other plugins keep working after each attack.
      expect(await host.registry.dispatch({ name: 'echo', input: { text: 'still here' } })).toMatchObject({
        ok: true,
        output: { text: 'still here' },
      });
    }
    if (isolate) {
      // The grant works: the granted port is reached, through the sandbox's proxy.
      const granted = await host.registry.dispatch({ name: 'attack', input: { kind: 'socks', host: '127.0.0.1', port: grantedPort } });
      expect(granted, JSON.stringify(granted)).toMatchObject({ ok: true, output: { done: true, got: 'granted-banner' } });
    }
  } finally {
    await host.close();
    rmSync(coreTarget, { force: true });
    rmSync(path.join(home, 'outside.txt'), { force: true });
    writeFileSync(path.join(project, '.toolshed/send-email/calls.jsonl'), '');
    seen.dns.length = 0;
  }
  return { escapes, outcomes };
}

describe('a hostile plugin installed beside echo and send_email', () => {
  it('escapes nowhere when isolated: each attack is refused or contained', async () => {
    const { escapes, outcomes } = await attackAll(true);
    console.log(`isolated: ${escapes.length} escapes of ${ATTACKS.length} attacks`);
    expect(escapes).toEqual([]);
    // A failed call names the plugin it came from.
    for (const outcome of outcomes.values()) {
      if (!outcome.ok) expect(outcome.error.message).toContain('hostile');
    }
  });

  it('gets through every attack in the host process, so each check above can fail', async () => {
    const { escapes } = await attackAll(false);
    console.log(`unisolated: ${escapes.length} escapes of ${ATTACKS.length} attacks`);
    expect(ATTACKS.map((attack) => attack.name).filter((name) => !escapes.includes(name))).toEqual([]);
  });
});
