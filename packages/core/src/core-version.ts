const { readFileSync } = process.getBuiltinModule('node:fs');
const { fileURLToPath } = process.getBuiltinModule('node:url');

let version: string | undefined;

/**
 * The version of this copy of @toolshed/core, read from its own package.json: the folder
 * above this module, in src/ as in either build in dist/. The host checks each plugin's peer
 * range for core against the core it runs with, which is the contract it imported: asking
 * that copy costs one small read, where finding core's package.json from the host cost a
 * module resolution and a walk up the folders on every `toolshed list`.
 */
export function coreVersion(): string {
  if (version !== undefined) return version;
  const url = new URL('../package.json', import.meta.url);
  // The path as the system writes it, for the errors (a URL's pathname spells a space %20).
  const file = fileURLToPath(url);
  let pkg: { name?: unknown; version?: unknown } | undefined;
  try {
    pkg = JSON.parse(readFileSync(url, 'utf8')) as typeof pkg;
  } catch (error) {
    throw new Error(
      `cannot read the package.json of @toolshed/core (${file}): ${(error as Error).message}. Install @toolshed/core as a package; a bundle that copies it loses its package.json.`,
    );
  }
  if (pkg?.name !== '@toolshed/core' || typeof pkg.version !== 'string')
    throw new Error(
      `${file} is not the package.json of @toolshed/core; install @toolshed/core as a package (a bundle that copies it loses its package.json).`,
    );
  version = pkg.version;
  return version;
}
