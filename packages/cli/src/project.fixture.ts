import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';

const cliDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * The project the CLI's tests run in (test-fixtures/project), not the monorepo root: its
 * package.json declares the bundled plugins as a user's project would. node_modules is not
 * committed; each plugin is linked to the package pnpm installed for the CLI's own
 * devDependencies, so the tests see exactly the plugins the CLI declares.
 */
export function fixtureProject(): string {
  const project = path.join(cliDir, 'test-fixtures/project');
  const pkg = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const name of Object.keys(pkg.dependencies)) {
    const target = realpathSync(path.join(cliDir, 'node_modules', name));
    const link = path.join(project, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    // Test files run in parallel workers: make the link under a name of this worker's own and
    // rename it into place, which replaces whatever is there in one step, so no worker ever
    // sees a half-made or missing link.
    const temporary = `${link}.${process.pid}-${threadId}.tmp`;
    rmSync(temporary, { force: true });
    symlinkSync(target, temporary, 'dir');
    renameSync(temporary, link);
  }
  return realpathSync(project);
}
