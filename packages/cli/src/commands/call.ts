import type { Command } from 'commander';
import type { Outcome, ToolEvent, ToolRegistry } from '@toolshed/core';
import { outcomeRecord } from '@toolshed/core/contract';
import { partLine, writeParts } from '../call-parts.js';
import { commandOf, type CommandSpec } from '../command-spec.js';
import { loadTools } from '../host.js';
import { numberFlag, readCallInput } from '../input.js';
import { print } from '../print.js';
import { style } from '../style.js';
import { UsageError } from '../usage-error.js';
import { loadContext } from '../load-context.js';
const { appendFileSync, openSync } = process.getBuiltinModule('node:fs');

interface CallOptions {
  inputFile?: string;
  json?: boolean;
  partsDir?: string;
  timeout?: string;
  transcript?: string;
  yes?: boolean;
}

type CallEnd = Extract<ToolEvent, { type: 'call.end' }>;

/**
 * What the command prints on stdout: the whole outcome under --json (each part as its record:
 * type, MIME type, size, digest), else a success's output (nothing for none) and a line per part.
 * Never a part's base64: a terminal shows it as pages of noise.
 */
function stdoutText(outcome: Outcome, json: boolean, files: readonly (string | undefined)[]): string | undefined {
  if (json) return `${JSON.stringify(recordWithFiles(outcome, files), null, 2)}\n`;
  if (!outcome.ok) return undefined;
  const lines =
    outcome.output === undefined ? [] : [typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output, null, 2)];
  outcome.parts?.forEach((part, index) => lines.push(partLine(part, index, files[index])));
  return lines.length === 0 ? undefined : `${lines.join('\n')}\n`;
}

function recordWithFiles(outcome: Outcome, files: readonly (string | undefined)[]): unknown {
  const record = outcomeRecord(outcome);
  if (!('parts' in record) || record.parts === undefined || files.length === 0) return record;
  return { ...record, parts: record.parts.map((part, index) => (files[index] === undefined ? part : { ...part, file: files[index] })) };
}

function printFailure(outcome: Extract<Outcome, { ok: false }>): void {
  const { code, message, issues } = outcome.error;
  process.stderr.write(`${style('red', `${outcome.name}: ${code}`, process.stderr)}: ${message}\n`);
  for (const issue of issues?.slice(1) ?? []) process.stderr.write(`  ${issue.at}: ${issue.message}\n`);
}

/** What the command writes of a call: the outcome it reports, its stdout, and the transcript's call.end line. */
interface Written {
  outcome: Outcome;
  stdout: string | undefined;
  end: string | undefined;
}

/**
 * The output turned into JSON once and read back as plain data: a toJSON or getter runs once,
 * so stdout and the transcript say the same (one that writes on a first try and throws on a
 * second cannot pass as a success in one and a failure in the other). What JSON leaves out
 * (a function) is no output, as providers read it.
 */
function plainOutcome(outcome: Outcome): Outcome {
  if (!outcome.ok || typeof outcome.output === 'string') return outcome;
  const text = JSON.stringify(outcome.output);
  return { ...outcome, output: text === undefined ? undefined : JSON.parse(text) };
}

/**
 * The outcome as the command reports it on stdout and in the transcript alike. An output JSON
 * cannot write (a cycle, a BigInt, nesting deeper than the stack, a toJSON or getter that
 * throws) fails the call as invalid_output, the tool's fault, in the words every provider
 * adapter gives a model, instead of ending the command with JSON's own error.
 */
async function written(
  outcome: Outcome,
  json: boolean,
  end: CallEnd | undefined,
  files: readonly (string | undefined)[],
): Promise<Written> {
  const write = (reported: Outcome): Written => {
    const plain = plainOutcome(reported);
    // The transcript records parts by type, size and digest, as stdout does.
    return {
      outcome: plain,
      stdout: stdoutText(plain, json, files),
      end: end && `${JSON.stringify({ ...end, outcome: outcomeRecord(plain) })}\n`,
    };
  };
  try {
    return write(outcome);
  } catch (error) {
    // Loaded only here: a call whose output can be written never needs the adapters.
    const { unwritableOutputMessage } = await import('@toolshed/providers');
    // Only a success's output can fail to write: core keeps inputs and errors writable.
    const { output: _, ok: __, ...rest } = outcome as Extract<Outcome, { ok: true }>;
    return write({ ok: false, ...rest, error: { code: 'invalid_output', message: unwritableOutputMessage(outcome.name, error) } });
  }
}

export const CALL: CommandSpec = {
  name: 'call',
  description: 'Call one tool and print its output (exit 1 when the call fails, 2 on a usage error)',
  args: [
    { syntax: '<tool>', description: 'the tool to call' },
    { syntax: '[input]', description: 'the input as a JSON object, or - to read it from stdin' },
  ],
  options: [
    { long: 'input-file', value: 'file', description: 'read the input JSON from a file (- for stdin)' },
    { long: 'json', description: 'print the whole outcome as JSON (parts by type, MIME type, size and digest)' },
    { long: 'parts-dir', value: 'dir', description: "write the call's images, audio and files to this folder" },
    { long: 'timeout', value: 'ms', description: 'stop the call after this many milliseconds' },
    { long: 'transcript', value: 'file', description: "append the call's events to this file as JSON lines" },
    { long: 'yes', short: 'y', description: 'allow tools that need approval (destructive, open-world) without asking' },
  ],
};

export function registerCall(program: Command): void {
  commandOf(program, CALL).action((tool: string, json: string | undefined, options: CallOptions) => runCall(tool, json, options));
}

export async function runCall(tool: string, json: string | undefined, options: CallOptions): Promise<void> {
  const input = await readCallInput(tool, json, options.inputFile);
  const timeoutMs = numberFlag('--timeout', options.timeout, (ms) => Number.isFinite(ms) && ms > 0, 'a positive number of milliseconds');
  // Imported here: it loads @toolshed/core, which listing commands do without.
  const { terminalApproval } = await import('../approval.js');
  const { registry, host } = await loadTools({ approve: await terminalApproval(options.yes === true) });
  // Events the transcript could not take (a full disk, a file size limit): said after the call,
  // never dropped in silence. The registry would only hand a subscriber's error to its logger.
  const lost: { types: string[]; error?: unknown } = { types: [] };
  let transcript: number | undefined;
  const append = (type: ToolEvent['type'], line: () => string) => {
    if (transcript === undefined) return;
    try {
      appendFileSync(transcript, line());
    } catch (error) {
      lost.types.push(type);
      lost.error ??= error;
    }
  };
  // The call's end is written after the call, with the outcome as the command reports it.
  const ended: { event?: CallEnd } = {};
  if (options.transcript !== undefined) {
    // Opened before the call, so an unwritable transcript is a usage error rather than a silent loss.
    // A host the command made is closed by reportError.
    try {
      transcript = openSync(options.transcript, 'a');
      appendFileSync(transcript, `${JSON.stringify(await definitionsCost(registry))}\n`);
    } catch (error) {
      throw new UsageError(`cannot write the transcript file ${options.transcript}: ${(error as Error).message}`);
    }
    registry.subscribe((event) => {
      if (event.type === 'call.end') ended.event = event;
      else append(event.type, () => `${JSON.stringify(event)}\n`);
    });
  }
  const dispatched = await registry.dispatch({ name: tool, input }, timeoutMs === undefined ? {} : { timeoutMs });
  const asJson = options.json === true;
  // A part that cannot be written is a usage error; reportError closes the host.
  const files = options.partsDir !== undefined && dispatched.ok && dispatched.parts ? writeParts(dispatched.parts, options.partsDir) : [];
  const { outcome, stdout, end } = await written(dispatched, asJson, ended.event, files);
  if (end !== undefined) append('call.end', () => end);
  if (transcript !== undefined && outcome.ok && outcome.parts !== undefined) {
    const cost = await resultCost(outcome);
    append('call.end', () => `${JSON.stringify(cost)}\n`);
  }
  // Pooled connections and open files would otherwise keep the process alive.
  await host.close();
  if (stdout !== undefined) print(stdout);
  if (!outcome.ok && !asJson) printFailure(outcome);
  if (outcome.ok && !asJson)
    for (const issue of outcome.partIssues ?? []) process.stderr.write(`${style('yellow', 'warning', process.stderr)}: ${issue.message}\n`);
  if (lost.types.length > 0) {
    process.stderr.write(
      `toolshed: the transcript ${options.transcript} is missing ${lost.types.join(', ')} of this call: ${(lost.error as Error).message}\n`,
    );
    process.exitCode = 1;
  }
  if (!outcome.ok) process.exitCode = 1;
}

/**
 * The first line of a run's transcript: what the definitions of every tool the
 * model could call cost in each request (OpenAI format, o200k tokens), once per run.
 */
async function definitionsCost(registry: ToolRegistry): Promise<object> {
  // Loaded here: the tokenizer's tables are megabytes that a call without a transcript never needs.
  const { measureTools } = await loadContext('call --transcript');
  const report = await measureTools(registry, { format: 'openai' });
  return {
    type: 'definitions',
    format: report.format,
    tokenizer: report.tokenizer,
    tools: report.tools.length,
    tokens: report.total.tokens,
    bytes: report.total.bytes,
    at: Date.now(),
  };
}

/**
 * After the end of a call with parts: what its result costs in the next request (OpenAI format),
 * each image as OpenAI counts images (by pixel size), not as the base64 it travels in.
 */
async function resultCost(outcome: Outcome): Promise<object> {
  const { measureResult } = await loadContext('call --transcript');
  const cost = await measureResult(outcome, { format: 'openai' });
  return { type: 'result', callId: outcome.callId, ...cost, at: Date.now() };
}
