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

/** The first entries of a real folder inside the root that the policy lets a model see. */
export async function listEntries(dir: string, displayDir: string, policy: PathPolicy): Promise<Entry[]> {
  const entries: Entry[] = [];
  try {
    const handle = await opendir(dir);
    let seen = 0;
    for await (const entry of handle) {
      if (++seen > SCAN_LIMIT) break;
      const shown = displayDir === '' ? entry.name : `${displayDir}/${entry.name}`;
      if (policy(shown) === undefined) entries.push({ name: entry.name, directory: entry.isDirectory() });
    }
  } catch {
    return [];
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** Up to five names in the folder that look like `name`: a different case, extension or a small typo. */
export async function similarNames(dir: string, displayDir: string, name: string, policy: PathPolicy): Promise<string[]> {
  const wanted = name.toLowerCase();
  const stem = path.parse(wanted).name;
  const scored: { name: string; score: number }[] = [];
  for (const entry of await listEntries(dir, displayDir, policy)) {
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
