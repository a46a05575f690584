import ignore from 'ignore';
import { originalNames } from './backup-names.js';
import { DEFAULT_DENY } from './deny-list.js';

/**
 * Why a path inside the root may not be read, or undefined when it may.
 * `directory` says the path is a folder: a pattern with a trailing slash
 * (`.git/`) matches only folders, so without it `.git` itself would pass.
 */
export type PathPolicy = (relativePath: string, directory?: boolean) => string | undefined;

/** The reason given for a path on the deny list (built-in or the `deny` option), as opposed to one outside `allow`. */
export const ON_DENY_LIST = 'it is on the deny list of secret and private files';
/** The reason given for a backup or copy of a name on the deny list (`.env~`, `server.pem.bak`). */
export const COPY_OF_DENIED = 'it is a backup or copy of a name on the deny list of secret and private files';

/** Whether a refusal is the deny list's (a secret's name or a copy of one), not `allow`'s. */
export function isDenyListReason(reason: string | undefined): boolean {
  return reason === ON_DENY_LIST || reason === COPY_OF_DENIED;
}

/**
 * Deny patterns are added after the built-in list, so a `!pattern` can
 * re-allow a name the list covers (e.g. `!.env.example`), as in .gitignore.
 * A path is refused as a copy when a part of it, undone of one backup or copy
 * decoration (see backup-names.ts), makes a denied path: `.env~`,
 * `config/#.env.production#`, `.ssh.bak/config`.
 */
export function createPathPolicy(deny: readonly string[], allow: readonly string[] | undefined): PathPolicy {
  const denied = ignore({ ignorecase: true }).add(DEFAULT_DENY).add(deny);
  const allowed = allow === undefined ? undefined : ignore({ ignorecase: true }).add(allow);
  const copyOfDenied = (parts: string[], directory: boolean) =>
    parts.some((part, at) =>
      originalNames(part).some((original) => {
        const candidate = [...parts.slice(0, at), original, ...parts.slice(at + 1)].join('/');
        return denied.ignores(directory ? `${candidate}/` : candidate);
      }),
    );
  return (relativePath, directory = false) => {
    if (relativePath === '') return undefined;
    if (denied.ignores(directory ? `${relativePath}/` : relativePath)) return ON_DENY_LIST;
    if (copyOfDenied(relativePath.split('/'), directory)) return COPY_OF_DENIED;
    if (allowed && !allowed.ignores(directory ? `${relativePath}/` : relativePath)) {
      return 'it is not among the paths this project allows to be read';
    }
    return undefined;
  };
}
