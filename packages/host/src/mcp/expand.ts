import { PluginError } from '@toolshed/core/contract';
const { homedir } = process.getBuiltinModule('node:os');

/**
 * `${NAME}` and `${NAME:-default}` (Claude Code), `${env:NAME}` (VS Code, Cursor), and the
 * folders `${workspaceFolder}` (the project) and `${userHome}`. `$NAME` without braces is text,
 * as in those clients.
 */
const REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface Expansion {
  /** The text with every reference replaced. */
  value: string;
  /** Whether it named an environment variable (then the text as written keys the cache, never the value). */
  fromEnv: boolean;
  /** The values read from the environment: secrets, kept out of every message. */
  secrets: string[];
}

export interface ExpandContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The project folder, for `${workspaceFolder}`. */
  cwd: string;
  /** What the user edits: the config file's name, or "the createHost options". */
  configName: string;
}

/**
 * Expand the references in one value of an entry's `env`, `args`, `url` or `headers`. An unset
 * variable without a default is an options-phase PluginError naming the field and the variable
 * (as an unset `{"env": NAME}` is), never a value; so is a reference Toolshed cannot fill
 * (VS Code's `${input:...}`, which it would prompt for).
 */
export function expandReferences(text: string, field: string, ctx: ExpandContext): Expansion {
  const secrets: string[] = [];
  let fromEnv = false;
  const value = text.replace(REFERENCE, (whole, inner: string) => {
    if (inner === 'workspaceFolder') return ctx.cwd;
    if (inner === 'userHome') return homedir();
    const fallback = inner.indexOf(':-');
    const named = fallback === -1 ? inner : inner.slice(0, fallback);
    const name = named.startsWith('env:') ? named.slice(4) : named;
    if (!VARIABLE.test(name)) {
      const advice = named.startsWith('input:')
        ? `${whole} is a VS Code input, which Toolshed cannot prompt for: set an environment variable and write \${NAME} instead`
        : `${whole} is not a reference Toolshed knows: write \${NAME}, \${NAME:-default}, \${env:NAME}, \${workspaceFolder} or \${userHome}`;
      throw new PluginError({ phase: 'options', field }, `option ${field}: ${advice}, in ${ctx.configName}.`);
    }
    fromEnv = true;
    const set = ctx.env[name];
    if (set !== undefined && !(fallback !== -1 && set === '')) {
      secrets.push(set);
      return set;
    }
    if (fallback !== -1) return inner.slice(fallback + 2);
    throw new PluginError(
      { phase: 'options', field },
      `option ${field} refers to environment variable ${name}, which is not set. Set ${name} before starting, or change the option in ${ctx.configName}.`,
    );
  });
  return { value, fromEnv, secrets };
}
