import { importOptionalPeer } from './optional-peer.js';

/**
 * `@toolshed/inspector` (the page and its server) is an optional peer of the CLI: only
 * `inspect` needs it, so a project that only lists and calls tools does not install it.
 */
export const loadInspector = () => importOptionalPeer('@toolshed/inspector', 'inspect', () => import('@toolshed/inspector'));
