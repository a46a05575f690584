import { optionPath } from './issues.js';
import { PluginError } from './plugin-error.js';
import { isRecord } from './record.js';

/** Whether a value is an `{"env": NAME}` reference (an object with that one key), resolved by resolveEnvReferences. */
export function isEnvReference(value: unknown): value is { env: unknown } {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'env';
}

/**
 * Replace every `{"env": "NAME"}` in plugin options with the variable's value, so secrets
 * need not be written into a config file. An unset variable is an options-phase PluginError
 * naming the option and the variable (never a value); `configName` is where the user can
 * change the option instead.
 */
export function resolveEnvReferences(
  options: unknown,
  env: Readonly<Record<string, string | undefined>>,
  configName: string,
  path: (string | number)[] = [],
): unknown {
  if (isEnvReference(options)) {
    const name = options.env;
    const field = optionPath(path);
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new PluginError(
        { phase: 'options', field },
        `option ${field}: {"env": ...} must name an environment variable, e.g. {"env": "SMTP_PASSWORD"}; got ${JSON.stringify(name)}.`,
      );
    }
    const value = env[name];
    if (value === undefined) {
      throw new PluginError(
        { phase: 'options', field },
        `option ${field} refers to environment variable ${name}, which is not set. Set ${name} before starting, or change the option in ${configName}.`,
      );
    }
    return value;
  }
  if (Array.isArray(options)) return options.map((item, index) => resolveEnvReferences(item, env, configName, [...path, index]));
  if (typeof options === 'object' && options !== null) {
    // Without a prototype: an own "__proto__" key (JSON.parse makes one) stays a key, never the copy's prototype.
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, value] of Object.entries(options)) out[key] = resolveEnvReferences(value, env, configName, [...path, key]);
    return out;
  }
  return options;
}
