import { parseArgs } from 'node:util';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandOf, flagsOf, GLOBAL_OPTIONS, parsePlainRun, type CommandSpec, type PlainRun } from './command-spec.js';
import { CALL } from './commands/call.js';
import { LIST } from './commands/list.js';

/** What commander makes of argv for `spec`: the same shape as a plain run, or the error it reports. */
function commander(spec: CommandSpec, argv: string[]): PlainRun | { error: string } {
  const program = new Command('toolshed').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  for (const option of GLOBAL_OPTIONS) program.option(flagsOf(option), option.description);
  let seen: PlainRun | undefined;
  commandOf(program, spec).action((...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const { cwd, config } = program.opts<{ cwd?: string; config?: string }>();
    seen = {
      args: command.args,
      options: command.opts(),
      global: { ...(cwd === undefined ? {} : { cwd }), ...(config === undefined ? {} : { config }) },
    };
  });
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    return { error: (error as Error).message };
  }
  return seen ?? { error: 'no action ran' };
}

const PLAIN: [CommandSpec, string[]][] = [
  [LIST, ['list']],
  [LIST, ['list', '--json']],
  [LIST, ['--cwd', 'project', 'list']],
  [LIST, ['list', '--cwd=project', '--config', 'other.json', '--json']],
  [CALL, ['call', 'echo']],
  [CALL, ['call', 'echo', '{"text":"hi"}']],
  [CALL, ['call', 'echo', '-']],
  [CALL, ['call', '-y', 'echo', '--input-file', 'input.json', '--timeout=500']],
  [CALL, ['call', 'echo', '--transcript', 'calls.jsonl', '--json', '--', '{"text":"--json"}']],
];

const NOT_PLAIN: [CommandSpec, string[]][] = [
  [LIST, []],
  [LIST, ['list', '--help']],
  [LIST, ['list', '-h']],
  [LIST, ['--version']],
  [LIST, ['list', 'extra']],
  [LIST, ['list', '--jsn']],
  [LIST, ['list', '--json=yes']],
  [LIST, ['list', '--cwd']],
  [LIST, ['schema']],
  [CALL, ['call']],
  [CALL, ['call', 'echo', '{}', 'extra']],
  [CALL, ['call', 'echo', '--timeout']],
  [CALL, ['call', 'echo', '--yes=no']],
  [CALL, ['call', 'echo', '--input-file']],
  [LIST, ['call', 'echo']],
  [CALL, ['list']],
];

describe('a plain run of list or call', () => {
  it.each(PLAIN)('%# is read as commander reads it: %j', (spec, argv) => {
    const plain = parsePlainRun(spec, argv);
    expect(plain).toBeDefined();
    expect(plain).toEqual(commander(spec, argv));
  });

  it('reads options under commander names, global options apart', () => {
    expect(parsePlainRun(CALL, ['--config', 'c.json', 'call', 'echo', '--input-file', 'in.json', '-y'])).toEqual({
      args: ['echo'],
      options: { inputFile: 'in.json', yes: true },
      global: { config: 'c.json' },
    });
  });

  // parsePlainRun reads such argv itself, so that a plain `toolshed list` never loads parseArgs:
  // this is what parseArgs would have made of it, for both commands' options.
  it('reads argv with no word starting with "-" as parseArgs does: all positionals, no values', () => {
    const argvs = [[], ['list'], ['list', 'extra'], ['call', 'echo', '{"text":"hi"}'], ['call', 'echo', 'a b', 'c=d'], ['schema', 'x']];
    for (const spec of [LIST, CALL])
      for (const argv of argvs) {
        const options = Object.fromEntries(
          [...GLOBAL_OPTIONS, ...spec.options].map(
            ({ long, short, value }) => [long, { type: value === undefined ? 'boolean' : 'string', ...(short ? { short } : {}) }] as const,
          ),
        );
        const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
        expect({ values: { ...parsed.values }, positionals: parsed.positionals }, JSON.stringify(argv)).toEqual({
          values: {},
          positionals: argv,
        });
        const [name, ...args] = argv;
        expect(parsePlainRun(spec, argv), JSON.stringify(argv)).toEqual(
          name === spec.name && args.length <= spec.args.length && args.length >= (spec === CALL ? 1 : 0)
            ? { args, options: {}, global: {} }
            : undefined,
        );
      }
  });

  it.each(NOT_PLAIN)('%# leaves anything else to commander: %j', (spec, argv) => {
    expect(parsePlainRun(spec, argv)).toBeUndefined();
  });

  it('gives commander each option as it writes flags', () => {
    expect(CALL.options.map(flagsOf)).toEqual([
      '--input-file <file>',
      '--json',
      '--parts-dir <dir>',
      '--timeout <ms>',
      '--transcript <file>',
      '-y, --yes',
    ]);
    expect(GLOBAL_OPTIONS.map(flagsOf)).toEqual(['--cwd <dir>', '--config <file>']);
  });
});
