import { execFile } from 'node:child_process';

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Show progress on stderr: the whole proof takes a few minutes. */
export function progress(message: string): void {
  console.error(`[e2e ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/**
 * Run a command and wait for it without blocking the event loop (the
 * registry answers from this same process). Rejects with its output on failure.
 */
export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: options.env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const line = `${command} ${args.join(' ')}`;
        const shown = line.length > 300 ? `${line.slice(0, 300)}...` : line;
        reject(
          new Error(
            `${shown} (in ${options.cwd}) failed with exit code ${String(error.code)}\n--- stdout\n${stdout.slice(-8000)}\n--- stderr\n${stderr.slice(-8000)}`,
          ),
        );
      } else {
        resolve({ stdout, stderr });
      }
    });
  });
}

/**
 * The environment for npm and pnpm in the test: this process's, without the
 * npm_config_* and test-runner variables it was started with, and with every
 * npm setting pointing into the temp folder (config, cache, registry), so
 * nothing reads or writes the user's ~/.npmrc or cache.
 */
export function isolatedEnv(home: string, registryUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|VITEST|NODE_OPTIONS$|TURBO_|INIT_CWD$)/i.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    npm_config_userconfig: `${home}/.npmrc`,
    npm_config_globalconfig: `${home}/global-npmrc`,
    npm_config_cache: `${home}/npm-cache`,
    npm_config_registry: `${registryUrl}/`,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
    NO_COLOR: '1',
  };
}
