import { stemmer } from 'stemmer';

// Words people use for the same action or thing when they ask for a tool,
// against the words tool descriptions tend to use. General software vocabulary
// only: nothing here names a particular tool or server. A query word is
// searched as itself and as each word of its group.
const GROUPS = [
  'read show view display print see contents content inside',
  'write save store put set overwrite',
  'delete remove forget erase drop unset',
  'create make new start',
  'find search look lookup locate query',
  'list enumerate which',
  'directory folder dir',
  'file document',
  'image picture photo screenshot media png jpg',
  'email mail',
  'run execute evaluate',
  'edit change modify replace update',
  'size space large big bytes',
  'fetch download url page web internet',
  'remember memory knowledge graph entity fact observation',
  'row insert',
  'move rename',
  'height high elevation altitude',
  'stage staging',
  'all entire everything whole',
];

const SYNONYMS = new Map<string, string[]>();
for (const group of GROUPS) {
  const stems = [...new Set(group.split(' ').map((word) => stemmer(word)))];
  for (const stem of stems) SYNONYMS.set(stem, [...new Set([...(SYNONYMS.get(stem) ?? []), ...stems])]);
}

/** The stems of a stem's synonyms, itself left out. */
export function synonymsOf(stem: string): string[] {
  return (SYNONYMS.get(stem) ?? []).filter((other) => other !== stem);
}
