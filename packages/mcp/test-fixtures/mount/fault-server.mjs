// A small MCP server over stdio, written by hand (no SDK) so that it can break the
// protocol on purpose. `node fault-server.mjs <mode>`; modes:
//   ok            answers like a good server (tool "speak" echoes {text})
//   garbage       answers tools/call with a line that is not JSON
//   exit-mid-call exits (code 3) while a call is running
//   hang          never answers tools/call; writes each notifications/cancelled to $RECORD
//   out-of-spec   answers tools/call with a result whose content is not an array
//   crash         exits at once with a message on stderr, before initialize
//   list-changed  after the first call, adds tool "shout" and sends tools/list_changed
//   big           answers with 100,000 characters of text
//   error         answers with isError: true
//   silent        never answers initialize (a server that hangs at start)
//   banner        writes a greeting to stdout before anything else (logs on the wrong stream)
//   cwd           answers speak with its working directory
//   leak          says $LEAK, spelled as $LEAK_FORM says (see SPELL), on stderr at start, in its
//                 tool's description, and in every answer: a result, or for text "error" a
//                 JSON-RPC error
// Every start appends a line to $STARTS (when set), every tools/call its request id to $CALLS;
// $PIDFILE gets the pid; see $GRANDCHILD_PIDFILE and $HELPER_PIDFILE below.
// Unless $EXIT_ON_EOF is set, it ignores stdin EOF and stays alive (a timer), like a careless server.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { onMessages, send } from './json-lines.mjs';

const mode = process.argv[2] ?? 'ok';
if (process.env.STARTS) appendFileSync(process.env.STARTS, `${process.pid}\n`);
if (process.env.PIDFILE) writeFileSync(process.env.PIDFILE, String(process.pid));
// $GRANDCHILD_PIDFILE: start a process of its own that outlives nothing by itself (it ignores EOF too).
if (process.env.GRANDCHILD_PIDFILE) {
  const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  writeFileSync(process.env.GRANDCHILD_PIDFILE, String(grandchild.pid));
}
// $HELPER_PIDFILE: start a helper the way a shell script does (`sh -c "sleep 1000 & ..."`): the
// shell exits at once, so the helper leaves the server's process tree, and it writes the helper's pid.
if (process.env.HELPER_PIDFILE) {
  spawnSync('sh', ['-c', 'sleep 1000 & echo $! > "$HELPER_PIDFILE"'], { stdio: 'ignore' });
}
if (mode === 'crash') {
  process.stderr.write('fatal: missing API key FAULT_KEY\n');
  process.exit(2);
}
if (!process.env.EXIT_ON_EOF) setInterval(() => {}, 1 << 30);
if (mode === 'banner') process.stdout.write('Fault server v1 ready on stdio\n');

// Each spelling from its definition: a careless server writes the secret back in one of them.
const SPELL = {
  raw: (v) => v,
  upper: (v) => v.toUpperCase(),
  uri: (v) => encodeURIComponent(v),
  base64: (v) => Buffer.from(v).toString('base64'),
  basic: (v) => Buffer.from(`agent:${v}`).toString('base64'),
  json: (v) => JSON.stringify(v).slice(1, -1),
  hex: (v) => Buffer.from(v).toString('hex'),
};
const leaked = mode === 'leak' ? SPELL[process.env.LEAK_FORM ?? 'raw'](process.env.LEAK ?? '') : '';
if (mode === 'leak') process.stderr.write(`starting with key ${leaked}\n`);

let calls = 0;
const speak = {
  name: 'speak',
  description: mode === 'leak' ? `Repeat the text (key ${leaked}).` : 'Repeat the text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 20 } }, required: ['text'], additionalProperties: false },
};
const tools = [speak];

onMessages(handle);
process.stdin.on('end', () => {
  if (process.env.EXIT_ON_EOF) process.exit(0);
});

function handle(message) {
  const { id, method, params } = message;
  if (method === 'initialize' && mode === 'silent') {
    // never answers
  } else if (method === 'initialize') {
    send({
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: `fault-${mode}`, version: '1.0.0' },
      },
    });
  } else if (method === 'tools/list') {
    send({ id, result: { tools } });
  } else if (method === 'notifications/cancelled') {
    if (process.env.RECORD) appendFileSync(process.env.RECORD, `${JSON.stringify(params)}\n`);
  } else if (method === 'tools/call') {
    calls += 1;
    if (process.env.CALLS) appendFileSync(process.env.CALLS, `${id}\n`);
    const text = params.arguments?.text ?? '';
    if (mode === 'garbage') process.stdout.write('Server ready! (this line is not JSON)\n');
    else if (mode === 'exit-mid-call') {
      process.stderr.write('segfault in speak\n');
      process.exit(3);
    } else if (mode === 'hang') {
      // never answers
    } else if (mode === 'out-of-spec') send({ id, result: { content: 'not an array' } });
    else if (mode === 'big') send({ id, result: { content: [{ type: 'text', text: 'x'.repeat(100_000) }] } });
    else if (mode === 'cwd') send({ id, result: { content: [{ type: 'text', text: process.cwd() }] } });
    else if (mode === 'leak' && text === 'error') send({ id, error: { code: -32603, message: `bad key ${leaked}` } });
    else if (mode === 'leak')
      send({ id, result: { content: [{ type: 'text', text: `key ${leaked}` }], structuredContent: { key: leaked } } });
    else if (mode === 'error') send({ id, result: { content: [{ type: 'text', text: `cannot speak "${text}"` }], isError: true } });
    else {
      send({ id, result: { content: [{ type: 'text', text }] } });
      if (mode === 'list-changed' && calls === 1) {
        tools.push({
          name: 'shout',
          description: 'Repeat the text loudly.',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        });
        send({ method: 'notifications/tools/list_changed' });
      }
    }
  } else if (id !== undefined) {
    send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
}
