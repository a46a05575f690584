import { appendFileSync, openSync } from 'node:fs';
import type { Command } from 'commander';
import type { Outcome, ToolRegistry } from '@toolshed/core';
import { commandOf, type CommandSpec } from '../command-spec.js';
import { loadTools } from '../host.js';
import { parseTimeout, readCallInput } from '../input.js';
import { print } from '../print.js';
import { style } from '../style.js';
import { UsageError } from '../usage-error.js';
import { loadContext } from '../load-context.js';

interface CallOptions {
  inputFile?: string;
  json?: boolean;
  timeout?: string;
  transcript?: string;
  yes?: boolean;
}

/** What the command prints on stdout: the whole outcome under --json, else a success's output (nothing for none). */
function stdoutText(outcome: Outcome, json: boolean): string | undefined {
  if (json) return `${JSON.stringify(outcome, null, 2)}\n`;
  if (!outcome.ok || outcome.output === undefined) return undefined;
  return typeof outcome.output === 'string' ? `${outcome.output}\n` : `${JSON.stringify(outcome.output, null, 2)}\n`;
}

function printFailure(outcome: Extract<Outcome, { ok: false }>): void {
  const { code, message, issues } = outcome.error;
  process.stderr.write(`${style('red', `${outcome.name}: ${code}`, process.stderr)}: ${message}\n`);
  for (const issue of issues?.slice(1) ?? []) process.stderr.write(`  ${issue.at}: ${issue.message}\n`);
}

/**
 * Print the outcome and return it as printed. An output JSON cannot write (a cycle, a BigInt,
 * nesting deeper than the stack, a toJSON or getter that throws) fails the call as
 * invalid_output, the tool's fault, in the words every provider adapter gives a model, instead
 * of ending the command with JSON's own error. The output is written once, so one that writes
 * on a first try and throws on a second cannot slip past a check.
 */
async function printOutcome(outcome: Outcome, json: boolean): Promise<Outcome> {
  let printed = outcome;
  let text: string | undefined;
  try {
    text = stdoutText(outcome, json);
  } catch (error) {
    // Loaded only here: a call whose output can be written never needs the adapters.
    const { unwritableOutputMessage } = await import('@toolshed/providers');
    // Only a success's output can fail to write: core keeps inputs and errors writable.
    const { output: _, ok: __, ...rest } = outcome as Extract<Outcome, { ok: true }>;
    printed = { ok: false, ...rest, error: { code: 'invalid_output', message: unwritableOutputMessage(outcome.name, error) } };
    text = stdoutText(printed, json);
  }
  if (text !== undefined) print(text);
  if (!printed.ok && !json) printFailure(printed);
  return printed;
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
    { long: 'json', description: 'print the whole outcome as JSON' },
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
  const timeoutMs = parseTimeout(options.timeout);
  // Imported here: it loads @toolshed/core, which listing commands do without.
  const { terminalApproval } = await import('../approval.js');
  const { registry, host } = await loadTools({ approve: terminalApproval(options.yes === true) });
  // Events the transcript could not take (a full disk, a file size limit): said after the call,
  // never dropped in silence. The registry would only hand a subscriber's error to its logger.
  const lost: { types: string[]; error?: unknown } = { types: [] };
  if (options.transcript !== undefined) {
    const file = options.transcript;
    const fd = openTranscript(file);
    try {
      appendFileSync(fd, `${JSON.stringify(await definitionsCost(registry))}\n`);
    } catch (error) {
      await host.close();
      throw new UsageError(`cannot write the transcript file ${file}: ${(error as Error).message}`);
    }
    registry.subscribe((event) => {
      try {
        appendFileSync(fd, `${JSON.stringify(event)}\n`);
      } catch (error) {
        lost.types.push(event.type);
        lost.error ??= error;
      }
    });
  }
  const dispatched = await registry.dispatch({ name: tool, input }, timeoutMs === undefined ? {} : { timeoutMs });
  // Pooled connections and open files would otherwise keep the process alive.
  await host.close();
  const outcome = await printOutcome(dispatched, options.json === true);
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

/** Open before the call, so an unwritable transcript is a usage error rather than a silent loss. */
function openTranscript(file: string): number {
  try {
    return openSync(file, 'a');
  } catch (error) {
    throw new UsageError(`cannot write the transcript file ${file}: ${(error as Error).message}`);
  }
}
