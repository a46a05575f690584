import type { Outcome } from '@toolshed/core';
import type { Problem } from './problem.js';

export interface CheckDeclaredPermissionsOptions {
  /** The project the plugin is installed in (its node_modules holds the plugin). */
  cwd: string;
  /** The plugin's package name, as a toolshed.config.json entry names it. */
  plugin: string;
  /** Its options, as in its config entry (`{"env": "NAME"}` included). */
  options?: Record<string, unknown>;
  /**
   * Calls that exercise what the plugin does, each made twice: in the host's process and
   * isolated. Their outcomes must not depend on when they run (no clock, no counter).
   */
  calls: readonly { tool: string; input: unknown }[];
}

type Host = Awaited<ReturnType<typeof import('@toolshed/host').createHost>>;

/** What must be the same isolated and not: success and output, or the error's code. */
function essence(outcome: Outcome): string {
  return JSON.stringify(outcome.ok ? { ok: true, output: outcome.output } : { ok: false, code: outcome.error.code });
}

function said(outcome: Outcome): string {
  return outcome.ok ? `returns ${JSON.stringify(outcome.output).slice(0, 200)}` : `fails (${outcome.error.message.slice(0, 300)})`;
}

/**
 * Check that a plugin does nothing beyond what its package.json declares: each call runs in the
 * host's process, then in the plugin's own process under the OS sandbox granted exactly the
 * declared permissions (values from `options` filled in), and any difference in outcome is a
 * problem naming the call. A plugin that hides a refusal (catches it and answers the same) is
 * not caught: the check sees outcomes, not system calls. Needs `@toolshed/host` and the sandbox
 * that isolation needs (see the host README's "Running plugins you do not trust").
 */
export async function checkDeclaredPermissions(check: CheckDeclaredPermissionsOptions): Promise<Problem[]> {
  const { createHost } = await import('@toolshed/host');
  const label = `Plugin ${JSON.stringify(check.plugin)}`;
  const entry = { plugin: check.plugin, ...(check.options !== undefined ? { options: check.options } : {}) };
  const problem = (message: string, tool?: string): Problem[] => [
    { kind: 'permissions', message: `${label}: ${message}`, ...(tool ? { tool } : {}) },
  ];

  const open: Host[] = [];
  try {
    const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));
    let inHost: Host;
    try {
      inHost = await createHost({ cwd: check.cwd, plugins: [{ ...entry, isolate: false }] });
    } catch (error) {
      return problem(`it did not load in the host's process, so nothing was compared: ${failure(error)}`);
    }
    open.push(inHost);
    // A plugin that declares nothing is granted nothing.
    const declared = inHost.plugins.find((plugin) => plugin.spec === check.plugin)?.permissions;
    const { read, write, net, env, spawn } = declared ?? { read: [], write: [], net: [], env: [], spawn: false };
    let isolated: Host;
    try {
      isolated = await createHost({ cwd: check.cwd, plugins: [{ ...entry, isolate: true, grant: { read, write, net, env, spawn } }] });
    } catch (error) {
      return problem(`it does not load isolated with its declared permissions: ${failure(error)}`);
    }
    open.push(isolated);
    const failed = isolated.plugins.find((plugin) => plugin.spec === check.plugin && plugin.status !== 'loaded');
    if (failed) return problem(`it does not load isolated with its declared permissions: ${failed.error?.message ?? failed.status}`);

    const problems: Problem[] = [];
    for (const [index, { tool, input }] of check.calls.entries()) {
      const call = { name: tool, input };
      const here = await inHost.registry.dispatch(call, { approve: 'allow-all' });
      const sandboxed = await isolated.registry.dispatch(call, { approve: 'allow-all' });
      if (essence(here) === essence(sandboxed)) continue;
      problems.push(
        ...problem(
          `call ${index + 1} of ${tool} ${said(here)} in the host's process but ${said(sandboxed)} isolated with only what it declares ` +
            `(${JSON.stringify({ read, write, net, env, spawn })}): it needs something it does not declare; add it to "toolshed.permissions" in its package.json.`,
          tool,
        ),
      );
    }
    return problems;
  } finally {
    await Promise.all(open.map((host) => host.close()));
  }
}
