import { PhaseError } from './errors.js';

/** Join an option path the way a user writes it: `smtp.password`, `to[0]`. */
export function optionPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out === '' ? '(options)' : out;
}

function isEnvReference(value: unknown): value is { env: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'env';
}

/**
 * Replace every `{"env": "NAME"}` in plugin options with the variable's value, so
 * secrets need not be written into the config file. An unset variable is an
 * options-phase error naming the option and the variable (never a value).
 */
export function resolveEnvReferences(
  options: unknown,
  env: Record<string, string | undefined>,
  configName: string,
  path: (string | number)[] = [],
): unknown {
  if (isEnvReference(options)) {
    const name = options.env;
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new PhaseError(
        'options',
        `option ${optionPath(path)}: {"env": ...} must name an environment variable, e.g. {"env": "SMTP_PASSWORD"}; got ${JSON.stringify(name)}.`,
      );
    }
    const value = env[name];
    if (value === undefined) {
      throw new PhaseError(
        'options',
        `option ${optionPath(path)} refers to environment variable ${name}, which is not set. ` +
          `Set ${name} before starting, or change the option in ${configName}.`,
      );
    }
    return value;
  }
  if (Array.isArray(options)) return options.map((item, index) => resolveEnvReferences(item, env, configName, [...path, index]));
  if (typeof options === 'object' && options !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) out[key] = resolveEnvReferences(value, env, configName, [...path, key]);
    return out;
  }
  return options;
}
