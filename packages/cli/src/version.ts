const { createRequire } = process.getBuiltinModule('node:module');

/** This package's version, found by the package's own name: the bundle's chunks sit at another depth than the sources. */
export const version = (createRequire(import.meta.url)('@toolshed/cli/package.json') as { version: string }).version;
