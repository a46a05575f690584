import { describeTool, isContractError, isToolName, TOOL_NAME_RULE, ToolRegistry, type AnyTool, type ToolDefinition } from '@toolshed/core';
import { describeStrictProblems, strictSchemaProblems } from '@toolshed/providers';
import { setTimeout as sleep } from 'node:timers/promises';
import { invalidArbitrary, type InvalidInput } from './json-arbitrary.js';
import type { Problem, ProblemKind } from './problem.js';

/** Shorter than this, a description rarely tells a model when to use the tool. */
export const MIN_DESCRIPTION_LENGTH = 20;
export const DEFAULT_ABORT_BOUND_MS = 1000;
export const DEFAULT_INVALID_RUNS = 100;
const SAMPLE_TIMEOUT_MS = 10_000;
const STAND_IN_DESCRIPTION = 'A stand-in description for the check.';

export interface CheckToolOptions {
  /** Valid inputs, as a model would send them: the output schema and abort handling are checked on each. */
  samples?: readonly unknown[];
  /** How long a handler may keep running after its call is aborted (default 1000 ms). */
  abortBoundMs?: number;
  /** How many invalid inputs to try (default 100). */
  invalidRuns?: number;
  /** fast-check seed, to replay a failure. */
  seed?: number;
}

/** Watches the handler: how often it ran, and its promise for the abort check. */
interface Probe {
  runs: number;
  onRun?: (running: unknown) => void;
}

function probed(tool: AnyTool, name: string, description: string, probe: Probe): AnyTool {
  return {
    ...tool,
    name,
    description,
    run(input, ctx) {
      probe.runs += 1;
      const running = tool.run.call(tool, input, ctx) as unknown;
      probe.onRun?.(running);
      return running;
    },
  };
}

// Not ref'd: a timer still pending after the handler settled must not hold the process open.
const delay = (ms: number) => sleep(ms, 'late' as const, { ref: false });

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** The kind of problem a field core's ContractError names makes: its schemas, its name, its description, or its shape. */
export function kindOfField(field: string | undefined): ProblemKind {
  if (field === 'input' || field === 'output') return 'schema';
  if (field === 'name' || field === 'description') return field;
  return 'shape';
}

/**
 * Check one tool as a plugin author would want it checked before a model
 * sees it. Resolves to every problem found (empty when it conforms); never
 * throws for a broken tool.
 */
export async function checkTool(tool: AnyTool, options: CheckToolOptions = {}): Promise<Problem[]> {
  const problems: Problem[] = [];
  const rawName = (tool as { name?: unknown } | undefined)?.name;
  const name = typeof rawName === 'string' ? rawName : String(rawName);
  const label = `Tool "${name}"`;
  const add = (kind: ProblemKind, message: string) => problems.push({ kind, tool: name, message: `${label}: ${message}` });

  if (typeof tool !== 'object' || tool === null) {
    add('shape', 'is not a tool object; make it with defineTool({ name, description, input, run }).');
    return problems;
  }
  if (!isToolName(rawName)) {
    add('name', `the name is not one model APIs accept; use ${TOOL_NAME_RULE} (e.g. "get_weather").`);
  }
  const description = (tool as { description?: unknown }).description;
  if (typeof description !== 'string' || description.trim() === '') {
    add('description', 'has no description; write one that says what it does, when to use it and what it returns.');
  } else if (description.trim().length < MIN_DESCRIPTION_LENGTH) {
    add(
      'description',
      `the description ${JSON.stringify(description)} is ${description.trim().length} characters; write at least ${MIN_DESCRIPTION_LENGTH}: what it does, when to use it, what it returns.`,
    );
  }

  // Check the schemas even when the name or description is wrong, under stand-ins.
  const checkedName = isToolName(rawName) ? rawName : 'tool_under_check';
  let definition: ToolDefinition;
  try {
    definition = describeTool({ ...tool, name: checkedName, description: STAND_IN_DESCRIPTION });
  } catch (error) {
    if (!isContractError(error)) throw error;
    add(kindOfField(error.field), error.reason);
    return problems;
  }

  const strict = strictSchemaProblems(definition.inputSchema);
  if (strict.length > 0) {
    add(
      'strict',
      `${describeStrictProblems(name, strict).replace(`Tool "${name}" `, '')}\nChange the input schema so OpenAI can use it with strict: true.`,
    );
  }

  const probe: Probe = { runs: 0 };
  // The checks are about the handler: a tool that needs approval would be denied
  // by default and its handler never checked, so the check approves every call.
  const registry = new ToolRegistry({ approve: 'allow-all' }).register(probed(tool, checkedName, STAND_IN_DESCRIPTION, probe));
  const timeoutMs = tool.timeoutMs === undefined ? SAMPLE_TIMEOUT_MS : undefined;
  const samples = options.samples ?? [];
  if (samples.length === 0) {
    add('samples', 'has no samples, so its output and abort handling were not checked; pass samples: [{...}] with valid inputs.');
  }
  const validSamples: unknown[] = [];
  for (const [index, sample] of samples.entries()) {
    const outcome = await registry.dispatch({ name: checkedName, input: sample }, timeoutMs ? { timeoutMs } : {});
    if (outcome.ok) {
      validSamples.push(sample);
      continue;
    }
    const { code, message } = outcome.error;
    if (code === 'invalid_input') {
      add('samples', `sample ${index + 1} ${preview(sample)} is not valid input, so it checks nothing: ${message} Fix the sample.`);
    } else {
      validSamples.push(sample);
      if (code === 'invalid_output') {
        add(
          'output',
          `on sample ${index + 1} ${preview(sample)} it returned output that fails its own output schema: ${message} Fix the handler or the output schema.`,
        );
      } else if (code === 'timeout') {
        add(
          'samples',
          `sample ${index + 1} ${preview(sample)} did not finish within ${timeoutMs ?? tool.timeoutMs} ms; use samples that finish quickly.`,
        );
      }
    }
  }

  const bound = options.abortBoundMs ?? DEFAULT_ABORT_BOUND_MS;
  for (const [index, sample] of validSamples.entries()) {
    const controller = new AbortController();
    let settled: Promise<'settled'> | undefined;
    probe.onRun = (running) => {
      settled = Promise.allSettled([running]).then(() => 'settled' as const);
      // Abort once the handler has started and reached its first await.
      setImmediate(() => controller.abort(new Error('aborted by the conformance check')));
    };
    await registry.dispatch({ name: checkedName, input: sample }, { signal: controller.signal });
    probe.onRun = undefined;
    if (settled && (await Promise.race([settled, delay(bound)])) === 'late') {
      add(
        'abort',
        `on sample ${index + 1} ${preview(sample)} its handler kept running more than ${bound} ms after the call was aborted; pass ctx.signal to the I/O it awaits, or check ctx.signal.aborted in loops.`,
      );
      break;
    }
  }

  const fc = await import('fast-check');
  const property = fc.asyncProperty(invalidArbitrary(fc, definition.inputSchema, validSamples), async ({ input }: InvalidInput) => {
    const before = probe.runs;
    // Only whether the handler starts matters: stop it at once if it does.
    const controller = new AbortController();
    probe.onRun = () => controller.abort(new Error('invalid input reached the handler'));
    await registry.dispatch({ name: checkedName, input }, { signal: controller.signal });
    probe.onRun = undefined;
    return probe.runs === before;
  });
  const result = await fc.check(property, {
    numRuns: options.invalidRuns ?? DEFAULT_INVALID_RUNS,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  if (result.failed && result.counterexample) {
    const [{ input, reason }] = result.counterexample;
    add(
      'invalid_input_reached_handler',
      `its handler ran on invalid input ${preview(input)} (${reason}). Its valibot input schema accepts what its JSON Schema forbids (a fallback, transform or custom check that lets anything through); make the schema reject it. (replay with seed ${result.seed})`,
    );
  } else if (result.failed) {
    add('invalid_input_reached_handler', `checking invalid inputs failed: ${String(result.errorInstance ?? 'unknown error')}`);
  }
  return problems;
}
