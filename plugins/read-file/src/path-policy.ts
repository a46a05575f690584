import ignore from 'ignore';
import { DEFAULT_DENY } from './deny-list.js';

/**
 * Why a path inside the root may not be read, or undefined when it may.
 * `directory` says the path is a folder: a pattern with a trailing slash
 * (`.git/`) matches only folders, so without it `.git` itself would pass.
 */
export type PathPolicy = (relativePath: string, directory?: boolean) => string | undefined;

/**
 * Deny patterns are added after the built-in list, so a `!pattern` can
 * re-allow a name the list covers (e.g. `!.env.example`), as in .gitignore.
 */
/** The reason given for a path on the deny list (built-in or the `deny` option), as opposed to one outside `allow`. */
export const ON_DENY_LIST = 'it is on the deny list of secret and private files';

export function createPathPolicy(deny: readonly string[], allow: readonly string[] | undefined): PathPolicy {
  const denied = ignore({ ignorecase: true }).add(DEFAULT_DENY).add(deny);
  const allowed = allow === undefined ? undefined : ignore({ ignorecase: true }).add(allow);
  return (relativePath, directory = false) => {
    if (relativePath === '') return undefined;
    if (directory) relativePath = `${relativePath}/`;
    if (denied.ignores(relativePath)) return ON_DENY_LIST;
    if (allowed && !allowed.ignores(relativePath)) return 'it is not among the paths this project allows to be read';
    return undefined;
  };
}
