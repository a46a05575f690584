/**
 * The names a file may have been copied or backed up from: editors, tools and
 * file managers add these decorations to a name, so `.env~` or
 * `server (copy).pem` holds what `.env` or `server.pem` held. The rule is the
 * README's *Backups and copies*; each form is undone one at a time, and the
 * results are undone again (`.env.bak~`), up to {@link MAX_DEPTH} times.
 */
const FORMS: readonly ((name: string) => string | undefined)[] = [
  // Emacs auto-save (#name#) and lock (.#name)
  (name) => /^#(.+)#$/.exec(name)?.[1],
  (name) => /^\.#(.+)$/.exec(name)?.[1],
  // Vim swap files: .name.swp, then .swo, .swn... down to .swa
  (name) => /^\.(.+)\.sw[a-p]$/.exec(name)?.[1],
  // Editor backups (name~) and GNU numbered backups (name.~1~)
  (name) => /^(.+?)(?:\.~\d+~|~)$/.exec(name)?.[1],
  // Suffixes of backups, copies and rotations: name.bak, name.orig, name.1...
  (name) => /^(.+)\.(?:bak|backup|orig|old|save|saved|tmp|temp|swp|swo|copy|\d+)$/i.exec(name)?.[1],
  // File managers' copies, at the end or before the extension: "name (copy)", "name (2).pem", "name copy", "name - Copy"
  (name) => {
    const match = /^(.+?)(?: \((?:copy|another copy|copy \d+|\d+)\)| copy(?: \d+)?| - copy(?: \(\d+\))?)(\.[^.]+)?$/i.exec(name);
    return match ? match[1] + (match[2] ?? '') : undefined;
  },
  // Windows' "Copy of name"
  (name) => /^copy (?:\(\d+\) )?of (.+)$/i.exec(name)?.[1],
];

// Whatever any form above needs: one test, so the many names that are no copy cost one regex.
const MAYBE_DECORATED = /[~# ]|\.(?:bak|backup|orig|old|save|saved|tmp|temp|sw[a-p]|copy|\d+)$/i;

// Decorations stacked deeper than this (name.bak.old.orig~) are not undone: a bound on the work per path part.
const MAX_DEPTH = 3;

/** The names `name` may be a backup or copy of, not including `name` itself. */
export function originalNames(name: string): string[] {
  if (!MAYBE_DECORATED.test(name)) return [];
  const found = new Set<string>();
  let layer = [name];
  for (let depth = 0; depth < MAX_DEPTH && layer.length > 0; depth++) {
    const next: string[] = [];
    for (const current of layer) {
      for (const form of FORMS) {
        const original = form(current);
        if (original && original !== name && !found.has(original)) {
          found.add(original);
          next.push(original);
        }
      }
    }
    layer = next;
  }
  return [...found];
}
