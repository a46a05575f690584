import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { distance } from 'fastest-levenshtein';
import type { PathPolicy } from './path-policy.js';

// Stop listing a folder after this many entries: hints must stay cheap in huge folders.
const SCAN_LIMIT = 2000;

interface Entry {
  name: string;
  directory: boolean;
}

/** Whether a symbolic link at this path under the root leads somewhere a read would be allowed. */
export type LinkCheck = (realRelativePath: string) => Promise<boolean>;

/**
 * The first entries of a folder inside the root that a model may see: the
 * same policy as a read, applied to `realDir` (the folder's real path under
 * the root, never the path as asked, which may have come through a link), a
 * folder matched as a folder (`.git/`), and a link shown only when a read
 * through it would be allowed.
 */
export async function listEntries(dir: string, realDir: string, policy: PathPolicy, linkAllowed: LinkCheck): Promise<Entry[]> {
  const entries: Entry[] = [];
  try {
    const handle = await opendir(dir);
    let seen = 0;
    for await (const entry of handle) {
      if (++seen > SCAN_LIMIT) break;
      const real = realDir === '' ? entry.name : `${realDir}/${entry.name}`;
      if (policy(real, entry.isDirectory()) !== undefined) continue;
      if (entry.isSymbolicLink() && !(await linkAllowed(real))) continue;
      entries.push({ name: entry.name, directory: entry.isDirectory() });
    }
  } catch {
    return [];
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** Up to five names in the folder that look like `name`: a different case, extension or a small typo. */
export async function similarNames(
  dir: string,
  displayDir: string,
  name: string,
  policy: PathPolicy,
  linkAllowed: LinkCheck,
): Promise<string[]> {
  const wanted = name.toLowerCase();
  const stem = path.parse(wanted).name;
  const scored: { name: string; score: number }[] = [];
  for (const entry of await listEntries(dir, displayDir, policy, linkAllowed)) {
    const candidate = entry.name.toLowerCase();
    const score = candidate === wanted ? 0 : path.parse(candidate).name === stem ? 1 : distance(candidate, wanted) + 1;
    if (score <= Math.max(3, Math.floor(wanted.length / 4) + 1)) {
      scored.push({ name: displayDir === '' ? entry.name : `${displayDir}/${entry.name}`, score });
    }
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, 5)
    .map((entry) => entry.name);
}
