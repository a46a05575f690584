import ignore from 'ignore';
import { DEFAULT_DENY } from './deny-list.js';

/** Why a path inside the root may not be read, or undefined when it may. */
export type PathPolicy = (relativePath: string) => string | undefined;

/**
 * Deny patterns are added after the built-in list, so a `!pattern` can
 * re-allow a name the list covers (e.g. `!.env.example`), as in .gitignore.
 */
export function createPathPolicy(deny: readonly string[], allow: readonly string[] | undefined): PathPolicy {
  const denied = ignore({ ignorecase: true }).add(DEFAULT_DENY).add(deny);
  const allowed = allow === undefined ? undefined : ignore({ ignorecase: true }).add(allow);
  return (relativePath) => {
    if (relativePath === '') return undefined;
    if (denied.ignores(relativePath)) return 'it is on the deny list of secret and private files';
    if (allowed && !allowed.ignores(relativePath)) return 'it is not among the paths this project allows to be read';
    return undefined;
  };
}
