import { importOptionalPeer } from './optional-peer.js';

/**
 * `@toolshed/context` (with a tokenizer of about 28 MB) is an optional peer of
 * the CLI: only `context`, `search`, `call --transcript` and served tool search
 * need it, so a project that only lists and calls tools does not install it.
 */
export const loadContext = (feature: string) => importOptionalPeer('@toolshed/context', feature, () => import('@toolshed/context'));
