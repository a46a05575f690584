// A catalogue written from real tool sets: the MCP reference servers
// (filesystem, git, memory, fetch, time, sequential thinking, everything,
// GitHub, Slack, PostgreSQL, SQLite, Brave Search, Puppeteer, Google Maps,
// Google Drive, Redis, Sentry, EverArt, AWS KB) and Toolshed's send_email.
// Descriptions are paraphrased; names and parameters are the servers' own, so
// near-duplicates stay near: read_file / read_text_file / read_multiple_files /
// gdrive_read_file, git_create_branch / create_branch, query / read_query.

const s = (description) => ({ type: 'string', description });
const n = (description) => ({ type: 'number', description });
const b = (description) => ({ type: 'boolean', description });
const a = (description, items = { type: 'string' }) => ({ type: 'array', items, description });

function tool(name, description, properties = {}, required = Object.keys(properties).slice(0, 1)) {
  return { name, description, inputSchema: { type: 'object', properties, required } };
}

export const CATALOGUE = [
  // filesystem
  tool('read_file', 'Read the complete contents of a file as text. Deprecated: use read_text_file.', { path: s('Path of the file') }),
  tool(
    'read_text_file',
    'Read the complete contents of a file from the file system as text. Use head for only the first N lines or tail for only the last N lines.',
    {
      path: s('Path of the file'),
      head: n('If given, return only the first N lines'),
      tail: n('If given, return only the last N lines'),
    },
  ),
  tool('read_media_file', 'Read an image or audio file and return its data base64-encoded with its MIME type.', {
    path: s('Path of the media file'),
  }),
  tool(
    'read_multiple_files',
    "Read the contents of several files at once, faster than one by one. Each file's content comes back with its path; a file that cannot be read does not stop the others.",
    {
      paths: a('Paths of the files to read'),
    },
  ),
  tool(
    'write_file',
    'Create a new file, or overwrite an existing file completely with new content.',
    { path: s('Where to write'), content: s('The text to write') },
    ['path', 'content'],
  ),
  tool(
    'edit_file',
    'Make line-based edits to a text file: each edit replaces an exact sequence of lines with new text. Returns a git-style diff.',
    {
      path: s('File to edit'),
      edits: a('Edits to apply', { type: 'object', properties: { oldText: s('Text to find'), newText: s('Text to put instead') } }),
      dryRun: b('Preview the changes as a diff without writing'),
    },
  ),
  tool('create_directory', 'Create a new directory, or make sure it exists, creating parent directories as needed.', {
    path: s('Directory to create'),
  }),
  tool('list_directory', 'List the files and directories directly inside a path, each marked [FILE] or [DIR].', {
    path: s('Directory to list'),
  }),
  tool('list_directory_with_sizes', 'List the files and directories in a path with their sizes, sorted by name or by size.', {
    path: s('Directory to list'),
    sortBy: { type: 'string', enum: ['name', 'size'], description: 'Sort entries by name or size' },
  }),
  tool('directory_tree', 'Get a recursive tree of files and folders as JSON, each entry with its name, type and children.', {
    path: s('Root of the tree'),
  }),
  tool(
    'move_file',
    'Move or rename a file or directory; fails if the destination exists.',
    { source: s('Current path'), destination: s('New path') },
    ['source', 'destination'],
  ),
  tool(
    'search_files',
    'Recursively search a folder for files and directories whose names match a glob pattern.',
    {
      path: s('Where to start'),
      pattern: s('Glob pattern such as *.ts'),
      excludePatterns: a('Patterns to skip'),
    },
    ['path', 'pattern'],
  ),
  tool('get_file_info', 'Get metadata about a file or directory: size, creation time, last modified time, permissions and type.', {
    path: s('File or directory'),
  }),
  tool('list_allowed_directories', 'List the directories this server is allowed to read and write.'),
  // git
  tool('git_status', 'Show the working tree status of a git repository.', { repo_path: s('Path to the repository') }),
  tool('git_diff_unstaged', 'Show changes in the working directory that are not staged yet.', {
    repo_path: s('Path to the repository'),
    context_lines: n('Lines of context'),
  }),
  tool('git_diff_staged', 'Show changes that are staged for the next commit.', {
    repo_path: s('Path to the repository'),
    context_lines: n('Lines of context'),
  }),
  tool(
    'git_diff',
    'Show differences between the current state and a branch or commit.',
    { repo_path: s('Path to the repository'), target: s('Branch or commit to compare with') },
    ['repo_path', 'target'],
  ),
  tool(
    'git_commit',
    'Record the staged changes in the repository with a commit message.',
    { repo_path: s('Path to the repository'), message: s('Commit message') },
    ['repo_path', 'message'],
  ),
  tool('git_add', 'Add file contents to the staging area.', { repo_path: s('Path to the repository'), files: a('Files to stage') }, [
    'repo_path',
    'files',
  ]),
  tool('git_reset', 'Unstage all staged changes.', { repo_path: s('Path to the repository') }),
  tool('git_log', 'Show the commit history of a repository, optionally between two dates.', {
    repo_path: s('Path to the repository'),
    max_count: n('How many commits'),
    start_timestamp: s('Earliest date'),
    end_timestamp: s('Latest date'),
  }),
  tool(
    'git_create_branch',
    'Create a new local git branch, from an optional base branch.',
    { repo_path: s('Path to the repository'), branch_name: s('Name of the new branch'), base_branch: s('Start point') },
    ['repo_path', 'branch_name'],
  ),
  tool(
    'git_checkout',
    'Switch the working tree to another branch.',
    { repo_path: s('Path to the repository'), branch_name: s('Branch to switch to') },
    ['repo_path', 'branch_name'],
  ),
  tool(
    'git_show',
    'Show the contents and changes of a commit.',
    { repo_path: s('Path to the repository'), revision: s('Commit hash or ref') },
    ['repo_path', 'revision'],
  ),
  tool('git_branch', 'List git branches: local, remote or all, optionally those containing a commit.', {
    repo_path: s('Path to the repository'),
    branch_type: s('local, remote or all'),
  }),
  // memory (knowledge graph)
  tool('create_entities', 'Create several new entities in the knowledge graph, each with a name, a type and observations.', {
    entities: a('Entities to create', { type: 'object' }),
  }),
  tool('create_relations', 'Create relations between entities in the knowledge graph, written in active voice.', {
    relations: a('Relations: from, to, relationType', { type: 'object' }),
  }),
  tool('add_observations', 'Add new observations (facts) to existing entities in the knowledge graph.', {
    observations: a('Entity names with the facts to add', { type: 'object' }),
  }),
  tool('delete_entities', 'Delete entities and every relation that involves them from the knowledge graph.', {
    entityNames: a('Names of the entities to delete'),
  }),
  tool('delete_observations', 'Delete specific observations from entities in the knowledge graph.', {
    deletions: a('Entity names with the observations to remove', { type: 'object' }),
  }),
  tool('delete_relations', 'Delete relations from the knowledge graph.', { relations: a('Relations to delete', { type: 'object' }) }),
  tool('read_graph', 'Read the entire knowledge graph: every entity and relation.'),
  tool('search_nodes', 'Search the knowledge graph for entities whose names, types or observations match a query.', {
    query: s('Words to look for'),
  }),
  tool('open_nodes', 'Open specific entities of the knowledge graph by name, with the relations between them.', {
    names: a('Entity names'),
  }),
  // fetch, time, thinking
  tool(
    'fetch',
    'Fetch a URL from the internet and return its contents as markdown, optionally starting at an index to read long pages in parts.',
    {
      url: s('The URL to fetch'),
      max_length: n('Most characters to return'),
      start_index: n('Where to start, for the next part of a long page'),
      raw: b('Return the raw HTML instead of markdown'),
    },
  ),
  tool('get_current_time', 'Get the current date and time in an IANA time zone.', {
    timezone: s('IANA time zone name, e.g. Europe/Warsaw'),
  }),
  tool(
    'convert_time',
    'Convert a time of day from one time zone to another.',
    { source_timezone: s('Zone of the given time'), time: s('Time as HH:MM'), target_timezone: s('Zone to convert to') },
    ['source_timezone', 'time', 'target_timezone'],
  ),
  tool(
    'sequentialthinking',
    'Think through a hard problem step by step: each thought can revise or branch from earlier ones as understanding deepens, until a hypothesis is verified.',
    {
      thought: s('The current thinking step'),
      thoughtNumber: n('Number of this thought'),
      totalThoughts: n('Estimated thoughts needed'),
      nextThoughtNeeded: b('Whether another thought is needed'),
    },
  ),
  // everything (the MCP test server)
  tool('add', 'Add two numbers and return the sum.', { a: n('First number'), b: n('Second number') }, ['a', 'b']),
  tool('printEnv', "Print the server's environment variables, to debug its configuration."),
  tool('longRunningOperation', 'A long running operation that reports progress as it goes, for testing progress notifications.', {
    duration: n('Seconds to run'),
    steps: n('Number of steps'),
  }),
  tool('sampleLLM', "Ask the client's language model to generate text for a prompt (MCP sampling).", {
    prompt: s('The prompt to send'),
    maxTokens: n('Most tokens to generate'),
  }),
  tool('getTinyImage', 'Return a tiny test image.'),
  // GitHub
  tool(
    'create_or_update_file',
    'Create or update a single file in a GitHub repository with a commit.',
    {
      owner: s('Repository owner'),
      repo: s('Repository name'),
      path: s('File path'),
      content: s('New content'),
      message: s('Commit message'),
      branch: s('Branch'),
    },
    ['owner', 'repo', 'path', 'content', 'message', 'branch'],
  ),
  tool('search_repositories', 'Search for GitHub repositories by keywords.', { query: s('Search query'), page: n('Page number') }),
  tool('create_repository', 'Create a new GitHub repository in your account.', {
    name: s('Repository name'),
    description: s('Repository description'),
    private: b('Whether it is private'),
  }),
  tool(
    'get_file_contents',
    'Get the contents of a file or directory from a GitHub repository.',
    { owner: s('Repository owner'), repo: s('Repository name'), path: s('Path in the repository'), branch: s('Branch') },
    ['owner', 'repo', 'path'],
  ),
  tool(
    'push_files',
    'Push several files to a GitHub repository in one commit.',
    {
      owner: s('Repository owner'),
      repo: s('Repository name'),
      branch: s('Branch to push to'),
      files: a('Files with path and content', { type: 'object' }),
      message: s('Commit message'),
    },
    ['owner', 'repo', 'branch', 'files', 'message'],
  ),
  tool(
    'create_issue',
    'Create a new issue in a GitHub repository.',
    { owner: s('Repository owner'), repo: s('Repository name'), title: s('Issue title'), body: s('Issue body'), labels: a('Labels') },
    ['owner', 'repo', 'title'],
  ),
  tool(
    'create_pull_request',
    'Create a new pull request in a GitHub repository, from a head branch into a base branch.',
    {
      owner: s('Repository owner'),
      repo: s('Repository name'),
      title: s('Pull request title'),
      head: s('Branch with the changes'),
      base: s('Branch to merge into'),
    },
    ['owner', 'repo', 'title', 'head', 'base'],
  ),
  tool(
    'fork_repository',
    'Fork a GitHub repository to your account or an organization.',
    { owner: s('Repository owner'), repo: s('Repository name'), organization: s('Organization to fork to') },
    ['owner', 'repo'],
  ),
  tool(
    'create_branch',
    'Create a new branch in a GitHub repository.',
    { owner: s('Repository owner'), repo: s('Repository name'), branch: s('Name of the new branch'), from_branch: s('Source branch') },
    ['owner', 'repo', 'branch'],
  ),
  tool(
    'list_commits',
    'Get the list of commits of a branch in a GitHub repository.',
    { owner: s('Repository owner'), repo: s('Repository name'), sha: s('Branch name or commit') },
    ['owner', 'repo'],
  ),
  tool(
    'list_issues',
    'List the issues of a GitHub repository, filtered by state and labels.',
    { owner: s('Repository owner'), repo: s('Repository name'), state: s('open, closed or all'), labels: a('Labels') },
    ['owner', 'repo'],
  ),
  tool(
    'update_issue',
    'Update an existing issue in a GitHub repository: title, body, state, labels or assignees.',
    { owner: s('Repository owner'), repo: s('Repository name'), issue_number: n('Issue number'), state: s('open or closed') },
    ['owner', 'repo', 'issue_number'],
  ),
  tool(
    'add_issue_comment',
    'Add a comment to an existing issue.',
    { owner: s('Repository owner'), repo: s('Repository name'), issue_number: n('Issue number'), body: s('Comment text') },
    ['owner', 'repo', 'issue_number', 'body'],
  ),
  tool('search_code', 'Search for code across GitHub repositories.', { q: s('Search query') }),
  tool('search_issues', 'Search for issues and pull requests across GitHub repositories.', { q: s('Search query') }),
  tool('search_users', 'Search for users on GitHub.', { q: s('Search query') }),
  tool(
    'get_issue',
    'Get the details of one issue in a GitHub repository.',
    { owner: s('Repository owner'), repo: s('Repository name'), issue_number: n('Issue number') },
    ['owner', 'repo', 'issue_number'],
  ),
  tool(
    'get_pull_request',
    'Get the details of a pull request.',
    { owner: s('Repository owner'), repo: s('Repository name'), pull_number: n('Pull request number') },
    ['owner', 'repo', 'pull_number'],
  ),
  tool(
    'list_pull_requests',
    'List and filter the pull requests of a repository.',
    { owner: s('Repository owner'), repo: s('Repository name'), state: s('open, closed or all') },
    ['owner', 'repo'],
  ),
  tool(
    'create_pull_request_review',
    'Create a review on a pull request: approve, request changes or comment.',
    {
      owner: s('Repository owner'),
      repo: s('Repository name'),
      pull_number: n('Pull request number'),
      event: s('APPROVE, REQUEST_CHANGES or COMMENT'),
      body: s('Review text'),
    },
    ['owner', 'repo', 'pull_number', 'event'],
  ),
  tool(
    'merge_pull_request',
    'Merge a pull request.',
    {
      owner: s('Repository owner'),
      repo: s('Repository name'),
      pull_number: n('Pull request number'),
      merge_method: s('merge, squash or rebase'),
    },
    ['owner', 'repo', 'pull_number'],
  ),
  tool(
    'get_pull_request_files',
    'Get the list of files changed in a pull request.',
    { owner: s('Repository owner'), repo: s('Repository name'), pull_number: n('Pull request number') },
    ['owner', 'repo', 'pull_number'],
  ),
  tool(
    'get_pull_request_status',
    'Get the combined status of every status check of a pull request.',
    { owner: s('Repository owner'), repo: s('Repository name'), pull_number: n('Pull request number') },
    ['owner', 'repo', 'pull_number'],
  ),
  tool(
    'update_pull_request_branch',
    'Update a pull request branch with the latest changes from its base branch.',
    { owner: s('Repository owner'), repo: s('Repository name'), pull_number: n('Pull request number') },
    ['owner', 'repo', 'pull_number'],
  ),
  tool(
    'get_pull_request_comments',
    'Get the review comments on a pull request.',
    { owner: s('Repository owner'), repo: s('Repository name'), pull_number: n('Pull request number') },
    ['owner', 'repo', 'pull_number'],
  ),
  tool(
    'get_pull_request_reviews',
    'Get the reviews of a pull request.',
    { owner: s('Repository owner'), repo: s('Repository name'), pull_number: n('Pull request number') },
    ['owner', 'repo', 'pull_number'],
  ),
  // Slack
  tool(
    'slack_list_channels',
    'List the public channels of the Slack workspace.',
    { limit: n('Most channels to return'), cursor: s('Pagination cursor') },
    [],
  ),
  tool('slack_post_message', 'Post a new message to a Slack channel.', { channel_id: s('Channel to post to'), text: s('Message text') }, [
    'channel_id',
    'text',
  ]),
  tool(
    'slack_reply_to_thread',
    'Reply to a message thread in a Slack channel.',
    { channel_id: s('Channel of the thread'), thread_ts: s('Timestamp of the parent message'), text: s('Reply text') },
    ['channel_id', 'thread_ts', 'text'],
  ),
  tool(
    'slack_add_reaction',
    'Add an emoji reaction to a Slack message.',
    { channel_id: s('Channel of the message'), timestamp: s('Timestamp of the message'), reaction: s('Emoji name without colons') },
    ['channel_id', 'timestamp', 'reaction'],
  ),
  tool('slack_get_channel_history', 'Get the recent messages of a Slack channel.', {
    channel_id: s('The channel'),
    limit: n('How many messages'),
  }),
  tool(
    'slack_get_thread_replies',
    'Get every reply in a Slack message thread.',
    { channel_id: s('Channel of the thread'), thread_ts: s('Timestamp of the parent message') },
    ['channel_id', 'thread_ts'],
  ),
  tool(
    'slack_get_users',
    'Get the users of the Slack workspace with their basic profiles.',
    { limit: n('Most users to return'), cursor: s('Pagination cursor') },
    [],
  ),
  tool('slack_get_user_profile', 'Get the detailed profile of one Slack user.', { user_id: s('The user') }),
  // PostgreSQL, SQLite
  tool('query', 'Run a read-only SQL query against the PostgreSQL database.', { sql: s('The SQL to run') }),
  tool('read_query', 'Execute a SELECT query on the SQLite database.', { query: s('SELECT statement') }),
  tool('write_query', 'Execute an INSERT, UPDATE or DELETE query on the SQLite database.', { query: s('SQL statement') }),
  tool('create_table', 'Create a new table in the SQLite database.', { query: s('CREATE TABLE statement') }),
  tool('list_tables', 'List every table in the SQLite database.'),
  tool('describe_table', 'Get the schema (columns and types) of a table in the SQLite database.', { table_name: s('Table to describe') }),
  tool('append_insight', 'Add a business insight to the memo of discovered insights.', { insight: s('The insight') }),
  // Brave Search
  tool(
    'brave_web_search',
    'Search the web with the Brave Search API: general queries, news, articles and online content, with pagination.',
    { query: s('Search terms'), count: n('Results per page'), offset: n('Pagination offset') },
  ),
  tool(
    'brave_local_search',
    'Search for local businesses and places such as restaurants and services near a location, with ratings, hours and addresses.',
    { query: s('What and where'), count: n('Number of results') },
  ),
  // Puppeteer
  tool('puppeteer_navigate', 'Open a URL in the browser.', { url: s('URL to open') }),
  tool('puppeteer_screenshot', 'Take a screenshot of the current page or of one element.', {
    name: s('Name for the screenshot'),
    selector: s('CSS selector of the element'),
    width: n('Width'),
    height: n('Height'),
  }),
  tool('puppeteer_click', 'Click an element on the page.', { selector: s('CSS selector of the element to click') }),
  tool('puppeteer_fill', 'Fill out an input field on the page.', { selector: s('CSS selector of the input'), value: s('Text to enter') }, [
    'selector',
    'value',
  ]),
  tool(
    'puppeteer_select',
    'Choose an option of a select element on the page.',
    { selector: s('CSS selector of the select'), value: s('Value to choose') },
    ['selector', 'value'],
  ),
  tool('puppeteer_hover', 'Hover the mouse over an element on the page.', { selector: s('CSS selector of the element') }),
  tool('puppeteer_evaluate', 'Execute JavaScript in the browser page and return the result.', { script: s('JavaScript code to run') }),
  // Google Maps
  tool('maps_geocode', 'Convert an address into geographic coordinates (latitude and longitude).', { address: s('The address') }),
  tool(
    'maps_reverse_geocode',
    'Convert latitude and longitude coordinates into an address.',
    { latitude: n('Latitude'), longitude: n('Longitude') },
    ['latitude', 'longitude'],
  ),
  tool('maps_search_places', 'Search for places by text with the Google Places API, optionally near a location.', {
    query: s('What to look for'),
    location: { type: 'object', description: 'Center of the search' },
    radius: n('Radius in meters'),
  }),
  tool('maps_place_details', 'Get detailed information about a place: address, phone, opening hours, reviews.', {
    place_id: s('The place id'),
  }),
  tool(
    'maps_distance_matrix',
    'Calculate travel distances and times between several origins and destinations.',
    { origins: a('Starting points'), destinations: a('End points'), mode: s('driving, walking, bicycling or transit') },
    ['origins', 'destinations'],
  ),
  tool('maps_elevation', 'Get the elevation of locations on the earth.', {
    locations: a('Points with latitude and longitude', { type: 'object' }),
  }),
  tool(
    'maps_directions',
    'Get directions between two points by car, on foot, by bike or by transit.',
    { origin: s('Start'), destination: s('End'), mode: s('driving, walking, bicycling or transit') },
    ['origin', 'destination'],
  ),
  // Google Drive
  tool('gdrive_search', 'Search for files in Google Drive.', { query: s('Search query') }),
  tool('gdrive_read_file', 'Read the contents of a file stored in Google Drive, by its Drive file id.', {
    fileId: s('Google Drive file id'),
  }),
  // Redis
  tool(
    'redis_set',
    'Set a Redis key to a value, with an optional expiry in seconds.',
    { key: s('Key'), value: s('Value'), expireSeconds: n('Expiry in seconds') },
    ['key', 'value'],
  ),
  tool('redis_get', 'Get the value stored at a Redis key.', { key: s('Key') }),
  tool('redis_delete', 'Delete one or more keys from Redis.', { key: s('Key or keys') }),
  tool('redis_list', 'List the Redis keys matching a pattern.', { pattern: s('Pattern such as user:*') }),
  // Sentry, EverArt, AWS Knowledge Base
  tool('get_sentry_issue', 'Retrieve and analyze a Sentry issue by id or URL: title, status, stack trace.', {
    issue_id_or_url: s('Sentry issue id or URL'),
  }),
  tool('generate_image', 'Generate an image from a text prompt with EverArt models.', {
    prompt: s('What the image shows'),
    model: s('Model id'),
    image_count: n('How many images'),
  }),
  tool(
    'retrieve_from_aws_kb',
    'Retrieve passages from an AWS Knowledge Base with the Bedrock Agent Runtime.',
    { query: s('What to retrieve'), knowledgeBaseId: s('Knowledge base id'), n: n('Number of results') },
    ['query', 'knowledgeBaseId'],
  ),
  // Toolshed
  tool(
    'send_email',
    'Send a plain-text email. Addresses off the allow list are refused. Without an SMTP server it goes to a local outbox instead, and the result says so.',
    {
      to: {
        anyOf: [
          { type: 'string', format: 'email' },
          { type: 'array', items: { type: 'string', format: 'email' } },
        ],
      },
      subject: s('One line.'),
      body: { type: 'string' },
    },
    ['to', 'subject', 'body'],
  ),
];
