/**
 * Recipients with case variants of one address removed: `Alice@Example.com` and
 * `alice@example.com` are one recipient, counted once against the limit and given
 * one RCPT TO. The first spelling is kept, and `to` comes before `cc`, so an
 * address in both stays in `to` only.
 */
export function dedupeRecipients(to: readonly string[], cc: readonly string[]): { to: string[]; cc: string[] } {
  const seen = new Set<string>();
  const keep = (list: readonly string[]) =>
    list.filter((address) => {
      const key = address.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return { to: keep(to), cc: keep(cc) };
}
