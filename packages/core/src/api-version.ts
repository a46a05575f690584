/**
 * The plugin API this core speaks. A host refuses plugins that state another
 * version rather than trusting npm peer ranges (which users can override).
 */
export const API_VERSION = 1;

/** The plugin apiVersions this core can load (API_VERSION is the newest). */
export const SUPPORTED_API_VERSIONS = { min: 1, max: API_VERSION } as const;

function supported(): string {
  const { min, max } = SUPPORTED_API_VERSIONS;
  return min === max ? `apiVersion ${min}` : `apiVersion ${min} to ${max}`;
}

/**
 * Undefined when a plugin's declared apiVersion (in code or in its package.json manifest)
 * is supported, else why not. The host, manifest generation and the testing kit all ask here.
 */
export function apiVersionProblem(apiVersion: unknown): string | undefined {
  if (!Number.isInteger(apiVersion)) {
    return `it declares apiVersion ${JSON.stringify(apiVersion)}, which is not an integer; this host supports ${supported()}.`;
  }
  const version = apiVersion as number;
  if (version >= SUPPORTED_API_VERSIONS.min && version <= SUPPORTED_API_VERSIONS.max) return undefined;
  const advice =
    version > SUPPORTED_API_VERSIONS.max
      ? 'Upgrade @toolshed/host (or @toolshed/cli), or install an older version of the plugin.'
      : 'Upgrade the plugin to a version made for this host.';
  return `it declares apiVersion ${version}, but this host supports ${supported()}. ${advice}`;
}
