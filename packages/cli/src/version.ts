import { createRequire } from 'node:module';

/** This package's version (the file sits one level below package.json, built or bundled). */
export const version = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
