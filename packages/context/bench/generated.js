// Plugins made up for the benchmarks: each with three tools over one kind of
// record, with realistic descriptions and parameters.
const DOMAINS = [
  ['crm', 'contact', 'a customer contact'],
  ['billing', 'invoice', 'an invoice'],
  ['hr', 'employee', 'an employee record'],
  ['tickets', 'ticket', 'a support ticket'],
  ['inventory', 'item', 'a stock item'],
  ['calendar', 'event', 'a calendar event'],
  ['wiki', 'page', 'a wiki page'],
  ['shop', 'order', 'a shop order'],
  ['fleet', 'vehicle', 'a fleet vehicle'],
  ['lab', 'sample', 'a lab sample'],
];

const s = (description) => ({ type: 'string', description });
const n = (description) => ({ type: 'number', description });

/** `count` plugins with three tools each: create, list and archive one kind of record. */
export function generatedPlugins(count) {
  return Array.from({ length: count }, (_, index) => {
    const [area, record, what] = DOMAINS[index % DOMAINS.length];
    const prefix = `${area}${index}`;
    return {
      plugin: `@acme/tool-${prefix}`,
      tools: [
        {
          name: `${prefix}_create_${record}`,
          description: `Create ${what} in the ${area} system number ${index}. Returns the new ${record}'s id; fails if one with the same name exists.`,
          inputSchema: {
            type: 'object',
            properties: {
              name: s(`Name of the ${record}`),
              owner: s('Who owns it (an email address)'),
              notes: s('Free text notes'),
              priority: n('1 (low) to 5 (high)'),
            },
            required: ['name'],
          },
        },
        {
          name: `${prefix}_list_${record}s`,
          description: `List the ${record}s of the ${area} system number ${index}, newest first, filtered by owner and status, a page at a time.`,
          inputSchema: {
            type: 'object',
            properties: {
              owner: s('Only those of this owner'),
              status: { type: 'string', enum: ['open', 'closed', 'all'] },
              page: n('Page, from 1'),
              pageSize: n('Items per page, at most 100'),
            },
          },
        },
        {
          name: `${prefix}_archive_${record}`,
          description: `Archive ${what} in the ${area} system number ${index}, so it no longer shows in lists. It can be restored for 30 days.`,
          inputSchema: { type: 'object', properties: { id: s(`The ${record}'s id`), reason: s('Why it is archived') }, required: ['id'] },
        },
      ],
    };
  });
}
