/** Recipient allow list: exact addresses and whole domains, compared case-insensitively. */
export interface AllowList {
  addresses: Set<string>;
  domains: Set<string>;
}

const DOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Parse the `allow` option; throws naming the first entry that is neither an address nor a domain. */
export function parseAllowList(entries: readonly string[]): AllowList {
  const list: AllowList = { addresses: new Set(), domains: new Set() };
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    const at = entry.lastIndexOf('@');
    const domain = at === -1 ? entry : entry.slice(at + 1);
    if (!DOMAIN.test(domain) || (at > 0 && /\s/.test(entry))) {
      throw new Error(
        `send_email options: allow entry ${JSON.stringify(raw)} is neither an address (alice@example.com) nor a domain (example.com).`,
      );
    }
    // "@example.com" reads as "anyone at example.com".
    if (at <= 0) list.domains.add(domain);
    else list.addresses.add(entry);
  }
  return list;
}

export function isAllowed(list: AllowList, address: string): boolean {
  const lower = address.toLowerCase();
  return list.addresses.has(lower) || list.domains.has(lower.slice(lower.lastIndexOf('@') + 1));
}
