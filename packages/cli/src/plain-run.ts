import { parsePlainRun } from './command-spec.js';
import { CALL, runCall } from './commands/call.js';
import { LIST, runList } from './commands/list.js';
import { setProjectOptions } from './host.js';
import { reportError } from './report-error.js';

/**
 * Run a plain `toolshed list` or `toolshed call` without commander: parsing its
 * program and every command costs more than listing the tools. Resolves to the
 * command it ran, or false when argv is anything
 * else; the full program takes it.
 */
export async function runPlain(argv: string[]): Promise<'list' | 'call' | false> {
  const list = parsePlainRun(LIST, argv);
  const call = list ? undefined : parsePlainRun(CALL, argv);
  const plain = list ?? call;
  if (!plain) return false;
  setProjectOptions(plain.global);
  try {
    if (list) await runList(plain.options);
    else await runCall(plain.args[0]!, plain.args[1], plain.options);
  } catch (error) {
    await reportError(error);
  }
  return list ? 'list' : 'call';
}
