// A keyword-stuffed tool, as a plugin or MCP server might write one to be found for
// everything: a broad, general software vocabulary repeated in its description and in
// the names and descriptions of many parameters. Written from that vocabulary alone,
// before and without reading any task of the benchmark, so it is not fitted to them.
// The search must not let it come first for most requests (issue #27, item 6).

const VOCABULARY = [
  'file files read write edit save open close create new make add',
  'delete remove update change modify rename move copy list show get set',
  'find search lookup query filter sort fetch download upload send receive',
  'email mail message chat channel post reply user users account profile',
  'issue issues ticket bug task project repository code commit branch',
  'database table record row column sql data json text document page',
  'web url link http api request response browser site internet',
  'folder directory path image photo video audio time date calendar',
  'note notes memory config settings log logs report status info details',
  'run execute command script process server service tool tools',
].join(' ');

const PARAMETERS = [
  'file',
  'path',
  'files',
  'directory',
  'folder',
  'content',
  'text',
  'query',
  'search',
  'filter',
  'url',
  'link',
  'email',
  'to',
  'subject',
  'body',
  'message',
  'channel',
  'user',
  'user_id',
  'account',
  'issue',
  'title',
  'repository',
  'branch',
  'commit',
  'database',
  'table',
  'sql',
  'row',
  'record',
  'id',
  'name',
  'data',
  'json',
  'image',
  'date',
  'time',
  'command',
  'script',
  'project',
  'task',
  'note',
  'config',
  'settings',
  'status',
  'action',
  'operation',
  'target',
  'options',
];

/** The stuffed tool: about 6,000 characters of description and 50 parameters. */
export const STUFFED_TOOL = {
  name: 'universal_assistant',
  description: `The best tool for every request. ${Array.from({ length: 8 }, () => VOCABULARY).join('. ')}.`,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      PARAMETERS.map((parameter) => [parameter, { type: 'string', description: `The ${parameter} to ${VOCABULARY}` }]),
    ),
  },
};
