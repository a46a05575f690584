import { Command, CommanderError } from 'commander';
import { flagsOf, GLOBAL_OPTIONS } from './command-spec.js';
import { registerCall } from './commands/call.js';
import { registerContext } from './commands/context.js';
import { registerInspect } from './commands/inspect.js';
import { registerList } from './commands/list.js';
import { registerNew } from './commands/new.js';
import { registerPlugins } from './commands/plugins.js';
import { registerSearch } from './commands/search.js';
import { registerSchema } from './commands/schema.js';
import { registerServe } from './commands/serve.js';
import { setProjectOptions } from './host.js';
import { reportError } from './report-error.js';
import { version } from './version.js';

function createProgram(): Command {
  const program = new Command('toolshed')
    .description('List, call and describe the tools of your Toolshed plugins')
    .version(version)
    .showHelpAfterError('(add --help for usage)')
    .hook('preAction', (command) => setProjectOptions(command.opts()))
    // Commander exits by itself; we map its errors to our exit codes instead.
    .exitOverride();
  for (const option of GLOBAL_OPTIONS) program.option(flagsOf(option), option.description);
  registerList(program);
  registerCall(program);
  registerSchema(program);
  registerContext(program);
  registerSearch(program);
  registerPlugins(program);
  registerServe(program);
  registerInspect(program);
  registerNew(program);
  return program;
}

/** Run the CLI. Exit codes: 0 success, 1 a tool call failed, 2 a usage error. */
export async function main(argv: string[] = process.argv): Promise<void> {
  try {
    await createProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (or the help).
      process.exitCode = error.exitCode === 0 ? 0 : 2;
    } else {
      await reportError(error);
    }
  }
}
