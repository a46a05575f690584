// The tools of the MCP reference servers published on npm, exactly as their tools/list
// answered (names, descriptions, input schemas), read on 2026-12-05 from
// @modelcontextprotocol/server-filesystem@2026.8.31, memory@2026.8.31, everything@2026.8.31, sequential-thinking@2026.8.31, github@2025.4.8, slack@2025.4.25, postgres@0.6.2, puppeteer@2025.5.12, brave-search@0.6.2, google-maps@0.6.2, everart@0.6.2, aws-kb-retrieval@0.6.2.
// GitLab is left out: its tool names repeat GitHub's. git, fetch, time and sqlite are Python servers, not on npm.
export const REFERENCE_TOOLS = [
  {
    server: 'filesystem',
    name: 'read_file',
    description: 'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        tail: { type: 'number', description: 'If provided, returns only the last N lines of the file' },
        head: { type: 'number', description: 'If provided, returns only the first N lines of the file' },
      },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'read_text_file',
    description:
      "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        tail: { type: 'number', description: 'If provided, returns only the last N lines of the file' },
        head: { type: 'number', description: 'If provided, returns only the first N lines of the file' },
      },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'read_media_file',
    description:
      'Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'read_multiple_files',
    description:
      "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.",
    inputSchema: {
      type: 'object',
      properties: {
        paths: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          description: 'Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.',
        },
      },
      required: ['paths'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'write_file',
    description:
      'Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'edit_file',
    description:
      'Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              oldText: { type: 'string', description: 'Text to search for - must match exactly' },
              newText: { type: 'string', description: 'Text to replace with' },
            },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun: { type: 'boolean', default: false, description: 'Preview changes using git-style diff format' },
      },
      required: ['path', 'edits'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'create_directory',
    description:
      'Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'list_directory',
    description:
      'Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'list_directory_with_sizes',
    description:
      'Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        sortBy: { type: 'string', enum: ['name', 'size'], default: 'name', description: 'Sort entries by name or size' },
      },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'directory_tree',
    description:
      "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). The output is formatted with 2-space indentation for readability. Only works within allowed directories.",
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, excludePatterns: { type: 'array', items: { type: 'string' }, default: [] } },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'move_file',
    description:
      'Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: { source: { type: 'string' }, destination: { type: 'string' } },
      required: ['source', 'destination'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'search_files',
    description:
      "Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext' to match files in current directory, and '**/*.ext' to match files in all subdirectories. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories.",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        pattern: { type: 'string' },
        excludePatterns: { type: 'array', items: { type: 'string' }, default: [] },
      },
      required: ['path', 'pattern'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'get_file_info',
    description:
      'Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'list_allowed_directories',
    description:
      'Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files.',
    inputSchema: { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' },
  },
  {
    server: 'memory',
    name: 'create_entities',
    description: 'Create multiple new entities in the knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'The name of the entity' },
              entityType: { type: 'string', description: 'The type of the entity' },
              observations: {
                type: 'array',
                items: { type: 'string' },
                description: 'An array of observation contents associated with the entity',
              },
            },
            required: ['name', 'entityType', 'observations'],
            additionalProperties: false,
          },
        },
      },
      required: ['entities'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'memory',
    name: 'create_relations',
    description: 'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
    inputSchema: {
      type: 'object',
      properties: {
        relations: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              from: { type: 'string', description: 'The name of the entity where the relation starts' },
              to: { type: 'string', description: 'The name of the entity where the relation ends' },
              relationType: { type: 'string', description: 'The type of the relation' },
            },
            required: ['from', 'to', 'relationType'],
            additionalProperties: false,
          },
        },
      },
      required: ['relations'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'memory',
    name: 'add_observations',
    description: 'Add new observations to existing entities in the knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {
        observations: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              entityName: { type: 'string', description: 'The name of the entity to add the observations to' },
              contents: { type: 'array', items: { type: 'string' }, description: 'An array of observation contents to add' },
            },
            required: ['entityName', 'contents'],
            additionalProperties: false,
          },
        },
      },
      required: ['observations'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'memory',
    name: 'delete_entities',
    description: 'Delete multiple entities and their associated relations from the knowledge graph',
    inputSchema: {
      type: 'object',
      properties: { entityNames: { type: 'array', items: { type: 'string' }, description: 'An array of entity names to delete' } },
      required: ['entityNames'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'memory',
    name: 'delete_observations',
    description: 'Delete specific observations from entities in the knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {
        deletions: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              entityName: { type: 'string', description: 'The name of the entity containing the observations' },
              observations: { type: 'array', items: { type: 'string' }, description: 'An array of observations to delete' },
            },
            required: ['entityName', 'observations'],
            additionalProperties: false,
          },
        },
      },
      required: ['deletions'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'memory',
    name: 'delete_relations',
    description: 'Delete multiple relations from the knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {
        relations: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              from: { type: 'string', description: 'The name of the entity where the relation starts' },
              to: { type: 'string', description: 'The name of the entity where the relation ends' },
              relationType: { type: 'string', description: 'The type of the relation' },
            },
            required: ['from', 'to', 'relationType'],
            additionalProperties: false,
          },
          description: 'An array of relations to delete',
        },
      },
      required: ['relations'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'memory',
    name: 'read_graph',
    description: 'Read the entire knowledge graph',
    inputSchema: { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' },
  },
  {
    server: 'memory',
    name: 'search_nodes',
    description: 'Search for nodes in the knowledge graph based on a query',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The search query to match against entity names, types, and observation content' },
      },
      required: ['query'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'memory',
    name: 'open_nodes',
    description: 'Open specific nodes in the knowledge graph by their names',
    inputSchema: {
      type: 'object',
      properties: { names: { type: 'array', items: { type: 'string' }, description: 'An array of entity names to retrieve' } },
      required: ['names'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'everything',
    name: 'echo',
    description: 'Echoes back the input string',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      $schema: 'http://json-schema.org/draft-07/schema#',
      required: ['message'],
    },
  },
  {
    server: 'everything',
    name: 'get-annotated-message',
    description: 'Demonstrates how annotations can be used to provide metadata about content.',
    inputSchema: {
      type: 'object',
      properties: {
        messageType: {
          type: 'string',
          enum: ['error', 'success', 'debug'],
          description: 'Type of message to demonstrate different annotation patterns',
        },
        includeImage: { default: false, description: 'Whether to include an example image', type: 'boolean' },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
      required: ['messageType'],
    },
  },
  {
    server: 'everything',
    name: 'get-env',
    description: 'Returns all environment variables, helpful for debugging MCP server configuration',
    inputSchema: { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' },
  },
  {
    server: 'everything',
    name: 'get-resource-links',
    description: 'Returns up to ten resource links that reference different types of resources',
    inputSchema: {
      type: 'object',
      properties: {
        count: { default: 3, description: 'Number of resource links to return (1-10)', type: 'number', minimum: 1, maximum: 10 },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'everything',
    name: 'get-resource-reference',
    description: 'Returns a resource reference that can be used by MCP clients',
    inputSchema: {
      type: 'object',
      properties: {
        resourceType: { default: 'Text', type: 'string', enum: ['Text', 'Blob'] },
        resourceId: { default: 1, description: 'ID of the text resource to fetch', type: 'number' },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'everything',
    name: 'get-structured-content',
    description: 'Returns structured content along with an output schema for client data validation',
    inputSchema: {
      type: 'object',
      properties: { location: { type: 'string', enum: ['New York', 'Chicago', 'Los Angeles'], description: 'Choose city' } },
      $schema: 'http://json-schema.org/draft-07/schema#',
      required: ['location'],
    },
  },
  {
    server: 'everything',
    name: 'get-sum',
    description: 'Returns the sum of two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      $schema: 'http://json-schema.org/draft-07/schema#',
      required: ['a', 'b'],
    },
  },
  {
    server: 'everything',
    name: 'get-tiny-image',
    description: 'Returns a tiny MCP logo image.',
    inputSchema: { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' },
  },
  {
    server: 'everything',
    name: 'gzip-file-as-resource',
    description:
      'Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded in a subsequent request during the current session.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { default: 'README.md.gz', type: 'string', description: 'Name of the output file' },
        data: {
          default: 'https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md',
          type: 'string',
          format: 'uri',
          description: 'URL or data URI of the file content to compress',
        },
        outputType: {
          default: 'resourceLink',
          description:
            "How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object.",
          type: 'string',
          enum: ['resourceLink', 'resource'],
        },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'everything',
    name: 'toggle-simulated-logging',
    description: 'Toggles simulated, random-leveled logging on or off.',
    inputSchema: { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' },
  },
  {
    server: 'everything',
    name: 'toggle-subscriber-updates',
    description: 'Toggles simulated resource subscription updates on or off.',
    inputSchema: { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' },
  },
  {
    server: 'everything',
    name: 'trigger-long-running-operation',
    description: 'Demonstrates a long running operation with progress updates.',
    inputSchema: {
      type: 'object',
      properties: {
        duration: { default: 10, description: 'Duration of the operation in seconds', type: 'number' },
        steps: { default: 5, description: 'Number of steps in the operation', type: 'number' },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'everything',
    name: 'simulate-research-query',
    description:
      "Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and client supports elicitation, sends an elicitation request for clarification.",
    inputSchema: {
      type: 'object',
      properties: {
        topic: { type: 'string', description: 'The research topic to investigate' },
        ambiguous: {
          default: false,
          description: 'Simulate an ambiguous query that requires clarification (triggers input_required status)',
          type: 'boolean',
        },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
      required: ['topic'],
    },
  },
  {
    server: 'sequential-thinking',
    name: 'sequentialthinking',
    description:
      'A detailed tool for dynamic and reflective problem-solving through thoughts.\nThis tool helps analyze problems through a flexible thinking process that can adapt and evolve.\nEach thought can build on, question, or revise previous insights as understanding deepens.\n\nWhen to use this tool:\n- Breaking down complex problems into steps\n- Planning and design with room for revision\n- Analysis that might need course correction\n- Problems where the full scope might not be clear initially\n- Problems that require a multi-step solution\n- Tasks that need to maintain context over multiple steps\n- Situations where irrelevant information needs to be filtered out\n\nKey features:\n- You can adjust total_thoughts up or down as you progress\n- You can question or revise previous thoughts\n- You can add more thoughts even after reaching what seemed like the end\n- You can express uncertainty and explore alternative approaches\n- Not every thought needs to build linearly - you can branch or backtrack\n- Generates a solution hypothesis\n- Verifies the hypothesis based on the Chain of Thought steps\n- Repeats the process until satisfied\n- Provides a correct answer\n\nParameters explained:\n- thought: Your current thinking step, which can include:\n  * Regular analytical steps\n  * Revisions of previous thoughts\n  * Questions about previous decisions\n  * Realizations about needing more analysis\n  * Changes in approach\n  * Hypothesis generation\n  * Hypothesis verification\n- nextThoughtNeeded: True if you need more thinking, even if at what seemed like the end\n- thoughtNumber: Current number in sequence (can go beyond initial total if needed)\n- totalThoughts: Current estimate of thoughts needed (can be adjusted up/down)\n- isRevision: A boolean indicating if this thought revises previous thinking\n- revisesThought: If is_revision is true, which thought number is being reconsidered\n- branchFromThought: If branching, which thought number is the branching point\n- branchId: Identifier for the current branch (if any)\n- needsMoreThoughts: If reaching end but realizing more thoughts needed\n\nYou should:\n1. Start with an initial estimate of needed thoughts, but be ready to adjust\n2. Feel free to question or revise previous thoughts\n3. Don\'t hesitate to add more thoughts if needed, even at the "end"\n4. Express uncertainty when present\n5. Mark thoughts that revise previous thinking or branch into new paths\n6. Ignore information that is irrelevant to the current step\n7. Generate a solution hypothesis when appropriate\n8. Verify the hypothesis based on the Chain of Thought steps\n9. Repeat the process until satisfied with the solution\n10. Provide a single, ideally correct answer as the final output\n11. Only set nextThoughtNeeded to false when truly done and a satisfactory answer is reached',
    inputSchema: {
      type: 'object',
      properties: {
        thought: { type: 'string', description: 'Your current thinking step' },
        nextThoughtNeeded: { type: ['boolean', 'string'], description: 'Whether another thought step is needed' },
        thoughtNumber: { type: 'integer', minimum: 1, description: 'Current thought number (numeric value, e.g., 1, 2, 3)' },
        totalThoughts: { type: 'integer', minimum: 1, description: 'Estimated total thoughts needed (numeric value, e.g., 5, 10)' },
        isRevision: { $ref: '#/properties/nextThoughtNeeded', description: 'Whether this revises previous thinking' },
        revisesThought: { type: 'integer', minimum: 1, description: 'Which thought is being reconsidered' },
        branchFromThought: { type: 'integer', minimum: 1, description: 'Branching point thought number' },
        branchId: { type: 'string', description: 'Branch identifier' },
        needsMoreThoughts: { $ref: '#/properties/isRevision', description: 'If more thoughts are needed' },
      },
      required: ['thought', 'nextThoughtNeeded', 'thoughtNumber', 'totalThoughts'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'create_or_update_file',
    description: 'Create or update a single file in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        path: { type: 'string', description: 'Path where to create/update the file' },
        content: { type: 'string', description: 'Content of the file' },
        message: { type: 'string', description: 'Commit message' },
        branch: { type: 'string', description: 'Branch to create/update the file in' },
        sha: { type: 'string', description: 'SHA of the file being replaced (required when updating existing files)' },
      },
      required: ['owner', 'repo', 'path', 'content', 'message', 'branch'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'search_repositories',
    description: 'Search for GitHub repositories',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query (see GitHub search syntax)' },
        page: { type: 'number', description: 'Page number for pagination (default: 1)' },
        perPage: { type: 'number', description: 'Number of results per page (default: 30, max: 100)' },
      },
      required: ['query'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'create_repository',
    description: 'Create a new GitHub repository in your account',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Repository name' },
        description: { type: 'string', description: 'Repository description' },
        private: { type: 'boolean', description: 'Whether the repository should be private' },
        autoInit: { type: 'boolean', description: 'Initialize with README.md' },
      },
      required: ['name'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'get_file_contents',
    description: 'Get the contents of a file or directory from a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        path: { type: 'string', description: 'Path to the file or directory' },
        branch: { type: 'string', description: 'Branch to get contents from' },
      },
      required: ['owner', 'repo', 'path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'push_files',
    description: 'Push multiple files to a GitHub repository in a single commit',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        branch: { type: 'string', description: "Branch to push to (e.g., 'main' or 'master')" },
        files: {
          type: 'array',
          items: {
            type: 'object',
            properties: { path: { type: 'string' }, content: { type: 'string' } },
            required: ['path', 'content'],
            additionalProperties: false,
          },
          description: 'Array of files to push',
        },
        message: { type: 'string', description: 'Commit message' },
      },
      required: ['owner', 'repo', 'branch', 'files', 'message'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'create_issue',
    description: 'Create a new issue in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        title: { type: 'string' },
        body: { type: 'string' },
        assignees: { type: 'array', items: { type: 'string' } },
        milestone: { type: 'number' },
        labels: { type: 'array', items: { type: 'string' } },
      },
      required: ['owner', 'repo', 'title'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'create_pull_request',
    description: 'Create a new pull request in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        title: { type: 'string', description: 'Pull request title' },
        body: { type: 'string', description: 'Pull request body/description' },
        head: { type: 'string', description: 'The name of the branch where your changes are implemented' },
        base: { type: 'string', description: 'The name of the branch you want the changes pulled into' },
        draft: { type: 'boolean', description: 'Whether to create the pull request as a draft' },
        maintainer_can_modify: { type: 'boolean', description: 'Whether maintainers can modify the pull request' },
      },
      required: ['owner', 'repo', 'title', 'head', 'base'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'fork_repository',
    description: 'Fork a GitHub repository to your account or specified organization',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        organization: { type: 'string', description: 'Optional: organization to fork to (defaults to your personal account)' },
      },
      required: ['owner', 'repo'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'create_branch',
    description: 'Create a new branch in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        branch: { type: 'string', description: 'Name for the new branch' },
        from_branch: {
          type: 'string',
          description: "Optional: source branch to create from (defaults to the repository's default branch)",
        },
      },
      required: ['owner', 'repo', 'branch'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'list_commits',
    description: 'Get list of commits of a branch in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        sha: { type: 'string' },
        page: { type: 'number' },
        perPage: { type: 'number' },
      },
      required: ['owner', 'repo'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'list_issues',
    description: 'List issues in a GitHub repository with filtering options',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        direction: { type: 'string', enum: ['asc', 'desc'] },
        labels: { type: 'array', items: { type: 'string' } },
        page: { type: 'number' },
        per_page: { type: 'number' },
        since: { type: 'string' },
        sort: { type: 'string', enum: ['created', 'updated', 'comments'] },
        state: { type: 'string', enum: ['open', 'closed', 'all'] },
      },
      required: ['owner', 'repo'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'update_issue',
    description: 'Update an existing issue in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        issue_number: { type: 'number' },
        title: { type: 'string' },
        body: { type: 'string' },
        assignees: { type: 'array', items: { type: 'string' } },
        milestone: { type: 'number' },
        labels: { type: 'array', items: { type: 'string' } },
        state: { type: 'string', enum: ['open', 'closed'] },
      },
      required: ['owner', 'repo', 'issue_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'add_issue_comment',
    description: 'Add a comment to an existing issue',
    inputSchema: {
      type: 'object',
      properties: { owner: { type: 'string' }, repo: { type: 'string' }, issue_number: { type: 'number' }, body: { type: 'string' } },
      required: ['owner', 'repo', 'issue_number', 'body'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'search_code',
    description: 'Search for code across GitHub repositories',
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string' },
        order: { type: 'string', enum: ['asc', 'desc'] },
        page: { type: 'number', minimum: 1 },
        per_page: { type: 'number', minimum: 1, maximum: 100 },
      },
      required: ['q'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'search_issues',
    description: 'Search for issues and pull requests across GitHub repositories',
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string' },
        order: { type: 'string', enum: ['asc', 'desc'] },
        page: { type: 'number', minimum: 1 },
        per_page: { type: 'number', minimum: 1, maximum: 100 },
        sort: {
          type: 'string',
          enum: [
            'comments',
            'reactions',
            'reactions-+1',
            'reactions--1',
            'reactions-smile',
            'reactions-thinking_face',
            'reactions-heart',
            'reactions-tada',
            'interactions',
            'created',
            'updated',
          ],
        },
      },
      required: ['q'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'search_users',
    description: 'Search for users on GitHub',
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string' },
        order: { type: 'string', enum: ['asc', 'desc'] },
        page: { type: 'number', minimum: 1 },
        per_page: { type: 'number', minimum: 1, maximum: 100 },
        sort: { type: 'string', enum: ['followers', 'repositories', 'joined'] },
      },
      required: ['q'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'get_issue',
    description: 'Get details of a specific issue in a GitHub repository.',
    inputSchema: {
      type: 'object',
      properties: { owner: { type: 'string' }, repo: { type: 'string' }, issue_number: { type: 'number' } },
      required: ['owner', 'repo', 'issue_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'get_pull_request',
    description: 'Get details of a specific pull request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
      },
      required: ['owner', 'repo', 'pull_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'list_pull_requests',
    description: 'List and filter repository pull requests',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'State of the pull requests to return' },
        head: { type: 'string', description: 'Filter by head user or head organization and branch name' },
        base: { type: 'string', description: 'Filter by base branch name' },
        sort: { type: 'string', enum: ['created', 'updated', 'popularity', 'long-running'], description: 'What to sort results by' },
        direction: { type: 'string', enum: ['asc', 'desc'], description: 'The direction of the sort' },
        per_page: { type: 'number', description: 'Results per page (max 100)' },
        page: { type: 'number', description: 'Page number of the results' },
      },
      required: ['owner', 'repo'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'create_pull_request_review',
    description: 'Create a review on a pull request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
        commit_id: { type: 'string', description: 'The SHA of the commit that needs a review' },
        body: { type: 'string', description: 'The body text of the review' },
        event: { type: 'string', enum: ['APPROVE', 'REQUEST_CHANGES', 'COMMENT'], description: 'The review action to perform' },
        comments: {
          type: 'array',
          items: {
            anyOf: [
              {
                type: 'object',
                properties: {
                  path: { type: 'string', description: 'The relative path to the file being commented on' },
                  position: { type: 'number', description: 'The position in the diff where you want to add a review comment' },
                  body: { type: 'string', description: 'Text of the review comment' },
                },
                required: ['path', 'position', 'body'],
                additionalProperties: false,
              },
              {
                type: 'object',
                properties: {
                  path: { type: 'string', description: 'The relative path to the file being commented on' },
                  line: { type: 'number', description: 'The line number in the file where you want to add a review comment' },
                  body: { type: 'string', description: 'Text of the review comment' },
                },
                required: ['path', 'line', 'body'],
                additionalProperties: false,
              },
            ],
          },
          description: 'Comments to post as part of the review (specify either position or line, not both)',
        },
      },
      required: ['owner', 'repo', 'pull_number', 'body', 'event'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'merge_pull_request',
    description: 'Merge a pull request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
        commit_title: { type: 'string', description: 'Title for the automatic commit message' },
        commit_message: { type: 'string', description: 'Extra detail to append to automatic commit message' },
        merge_method: { type: 'string', enum: ['merge', 'squash', 'rebase'], description: 'Merge method to use' },
      },
      required: ['owner', 'repo', 'pull_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'get_pull_request_files',
    description: 'Get the list of files changed in a pull request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
      },
      required: ['owner', 'repo', 'pull_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'get_pull_request_status',
    description: 'Get the combined status of all status checks for a pull request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
      },
      required: ['owner', 'repo', 'pull_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'update_pull_request_branch',
    description: 'Update a pull request branch with the latest changes from the base branch',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
        expected_head_sha: { type: 'string', description: "The expected SHA of the pull request's HEAD ref" },
      },
      required: ['owner', 'repo', 'pull_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'get_pull_request_comments',
    description: 'Get the review comments on a pull request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
      },
      required: ['owner', 'repo', 'pull_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'github',
    name: 'get_pull_request_reviews',
    description: 'Get the reviews on a pull request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        pull_number: { type: 'number', description: 'Pull request number' },
      },
      required: ['owner', 'repo', 'pull_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'slack',
    name: 'slack_list_channels',
    description: 'List public or pre-defined channels in the workspace with pagination',
    inputSchema: {
      type: 'object',
      properties: {
        limit: { type: 'number', description: 'Maximum number of channels to return (default 100, max 200)', default: 100 },
        cursor: { type: 'string', description: 'Pagination cursor for next page of results' },
      },
    },
  },
  {
    server: 'slack',
    name: 'slack_post_message',
    description: 'Post a new message to a Slack channel',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: { type: 'string', description: 'The ID of the channel to post to' },
        text: { type: 'string', description: 'The message text to post' },
      },
      required: ['channel_id', 'text'],
    },
  },
  {
    server: 'slack',
    name: 'slack_reply_to_thread',
    description: 'Reply to a specific message thread in Slack',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: { type: 'string', description: 'The ID of the channel containing the thread' },
        thread_ts: {
          type: 'string',
          description:
            "The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.",
        },
        text: { type: 'string', description: 'The reply text' },
      },
      required: ['channel_id', 'thread_ts', 'text'],
    },
  },
  {
    server: 'slack',
    name: 'slack_add_reaction',
    description: 'Add a reaction emoji to a message',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: { type: 'string', description: 'The ID of the channel containing the message' },
        timestamp: { type: 'string', description: 'The timestamp of the message to react to' },
        reaction: { type: 'string', description: 'The name of the emoji reaction (without ::)' },
      },
      required: ['channel_id', 'timestamp', 'reaction'],
    },
  },
  {
    server: 'slack',
    name: 'slack_get_channel_history',
    description: 'Get recent messages from a channel',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: { type: 'string', description: 'The ID of the channel' },
        limit: { type: 'number', description: 'Number of messages to retrieve (default 10)', default: 10 },
      },
      required: ['channel_id'],
    },
  },
  {
    server: 'slack',
    name: 'slack_get_thread_replies',
    description: 'Get all replies in a message thread',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: { type: 'string', description: 'The ID of the channel containing the thread' },
        thread_ts: {
          type: 'string',
          description:
            "The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.",
        },
      },
      required: ['channel_id', 'thread_ts'],
    },
  },
  {
    server: 'slack',
    name: 'slack_get_users',
    description: 'Get a list of all users in the workspace with their basic profile information',
    inputSchema: {
      type: 'object',
      properties: {
        cursor: { type: 'string', description: 'Pagination cursor for next page of results' },
        limit: { type: 'number', description: 'Maximum number of users to return (default 100, max 200)', default: 100 },
      },
    },
  },
  {
    server: 'slack',
    name: 'slack_get_user_profile',
    description: 'Get detailed profile information for a specific user',
    inputSchema: { type: 'object', properties: { user_id: { type: 'string', description: 'The ID of the user' } }, required: ['user_id'] },
  },
  {
    server: 'postgres',
    name: 'query',
    description: 'Run a read-only SQL query',
    inputSchema: { type: 'object', properties: { sql: { type: 'string' } } },
  },
  {
    server: 'puppeteer',
    name: 'puppeteer_navigate',
    description: 'Navigate to a URL',
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'URL to navigate to' },
        launchOptions: {
          type: 'object',
          description:
            "PuppeteerJS LaunchOptions. Default null. If changed and not null, browser restarts. Example: { headless: true, args: ['--no-sandbox'] }",
        },
        allowDangerous: {
          type: 'boolean',
          description:
            'Allow dangerous LaunchOptions that reduce security. When false, dangerous args like --no-sandbox will throw errors. Default false.',
        },
      },
      required: ['url'],
    },
  },
  {
    server: 'puppeteer',
    name: 'puppeteer_screenshot',
    description: 'Take a screenshot of the current page or a specific element',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name for the screenshot' },
        selector: { type: 'string', description: 'CSS selector for element to screenshot' },
        width: { type: 'number', description: 'Width in pixels (default: 800)' },
        height: { type: 'number', description: 'Height in pixels (default: 600)' },
        encoded: {
          type: 'boolean',
          description:
            'If true, capture the screenshot as a base64-encoded data URI (as text) instead of binary image content. Default false.',
        },
      },
      required: ['name'],
    },
  },
  {
    server: 'puppeteer',
    name: 'puppeteer_click',
    description: 'Click an element on the page',
    inputSchema: {
      type: 'object',
      properties: { selector: { type: 'string', description: 'CSS selector for element to click' } },
      required: ['selector'],
    },
  },
  {
    server: 'puppeteer',
    name: 'puppeteer_fill',
    description: 'Fill out an input field',
    inputSchema: {
      type: 'object',
      properties: {
        selector: { type: 'string', description: 'CSS selector for input field' },
        value: { type: 'string', description: 'Value to fill' },
      },
      required: ['selector', 'value'],
    },
  },
  {
    server: 'puppeteer',
    name: 'puppeteer_select',
    description: 'Select an element on the page with Select tag',
    inputSchema: {
      type: 'object',
      properties: {
        selector: { type: 'string', description: 'CSS selector for element to select' },
        value: { type: 'string', description: 'Value to select' },
      },
      required: ['selector', 'value'],
    },
  },
  {
    server: 'puppeteer',
    name: 'puppeteer_hover',
    description: 'Hover an element on the page',
    inputSchema: {
      type: 'object',
      properties: { selector: { type: 'string', description: 'CSS selector for element to hover' } },
      required: ['selector'],
    },
  },
  {
    server: 'puppeteer',
    name: 'puppeteer_evaluate',
    description: 'Execute JavaScript in the browser console',
    inputSchema: {
      type: 'object',
      properties: { script: { type: 'string', description: 'JavaScript code to execute' } },
      required: ['script'],
    },
  },
  {
    server: 'brave-search',
    name: 'brave_web_search',
    description:
      'Performs a web search using the Brave Search API, ideal for general queries, news, articles, and online content. Use this for broad information gathering, recent events, or when you need diverse web sources. Supports pagination, content filtering, and freshness controls. Maximum 20 results per request, with offset for pagination. ',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query (max 400 chars, 50 words)' },
        count: { type: 'number', description: 'Number of results (1-20, default 10)', default: 10 },
        offset: { type: 'number', description: 'Pagination offset (max 9, default 0)', default: 0 },
      },
      required: ['query'],
    },
  },
  {
    server: 'brave-search',
    name: 'brave_local_search',
    description:
      "Searches for local businesses and places using Brave's Local Search API. Best for queries related to physical locations, businesses, restaurants, services, etc. Returns detailed information including:\n- Business names and addresses\n- Ratings and review counts\n- Phone numbers and opening hours\nUse this when the query implies 'near me' or mentions specific locations. Automatically falls back to web search if no local results are found.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: "Local search query (e.g. 'pizza near Central Park')" },
        count: { type: 'number', description: 'Number of results (1-20, default 5)', default: 5 },
      },
      required: ['query'],
    },
  },
  {
    server: 'google-maps',
    name: 'maps_geocode',
    description: 'Convert an address into geographic coordinates',
    inputSchema: {
      type: 'object',
      properties: { address: { type: 'string', description: 'The address to geocode' } },
      required: ['address'],
    },
  },
  {
    server: 'google-maps',
    name: 'maps_reverse_geocode',
    description: 'Convert coordinates into an address',
    inputSchema: {
      type: 'object',
      properties: {
        latitude: { type: 'number', description: 'Latitude coordinate' },
        longitude: { type: 'number', description: 'Longitude coordinate' },
      },
      required: ['latitude', 'longitude'],
    },
  },
  {
    server: 'google-maps',
    name: 'maps_search_places',
    description: 'Search for places using Google Places API',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query' },
        location: {
          type: 'object',
          properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
          description: 'Optional center point for the search',
        },
        radius: { type: 'number', description: 'Search radius in meters (max 50000)' },
      },
      required: ['query'],
    },
  },
  {
    server: 'google-maps',
    name: 'maps_place_details',
    description: 'Get detailed information about a specific place',
    inputSchema: {
      type: 'object',
      properties: { place_id: { type: 'string', description: 'The place ID to get details for' } },
      required: ['place_id'],
    },
  },
  {
    server: 'google-maps',
    name: 'maps_distance_matrix',
    description: 'Calculate travel distance and time for multiple origins and destinations',
    inputSchema: {
      type: 'object',
      properties: {
        origins: { type: 'array', items: { type: 'string' }, description: 'Array of origin addresses or coordinates' },
        destinations: { type: 'array', items: { type: 'string' }, description: 'Array of destination addresses or coordinates' },
        mode: {
          type: 'string',
          description: 'Travel mode (driving, walking, bicycling, transit)',
          enum: ['driving', 'walking', 'bicycling', 'transit'],
        },
      },
      required: ['origins', 'destinations'],
    },
  },
  {
    server: 'google-maps',
    name: 'maps_elevation',
    description: 'Get elevation data for locations on the earth',
    inputSchema: {
      type: 'object',
      properties: {
        locations: {
          type: 'array',
          items: {
            type: 'object',
            properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
            required: ['latitude', 'longitude'],
          },
          description: 'Array of locations to get elevation for',
        },
      },
      required: ['locations'],
    },
  },
  {
    server: 'google-maps',
    name: 'maps_directions',
    description: 'Get directions between two points',
    inputSchema: {
      type: 'object',
      properties: {
        origin: { type: 'string', description: 'Starting point address or coordinates' },
        destination: { type: 'string', description: 'Ending point address or coordinates' },
        mode: {
          type: 'string',
          description: 'Travel mode (driving, walking, bicycling, transit)',
          enum: ['driving', 'walking', 'bicycling', 'transit'],
        },
      },
      required: ['origin', 'destination'],
    },
  },
  {
    server: 'everart',
    name: 'generate_image',
    description:
      'Generate images using EverArt Models and returns a clickable link to view the generated image. The tool will return a URL that can be clicked to view the image in a browser. Available models:\n- 5000:FLUX1.1: Standard quality\n- 9000:FLUX1.1-ultra: Ultra high quality\n- 6000:SD3.5: Stable Diffusion 3.5\n- 7000:Recraft-Real: Photorealistic style\n- 8000:Recraft-Vector: Vector art style\n\nThe response will contain a direct link to view the generated image.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'Text description of desired image' },
        model: {
          type: 'string',
          description: 'Model ID (5000:FLUX1.1, 9000:FLUX1.1-ultra, 6000:SD3.5, 7000:Recraft-Real, 8000:Recraft-Vector)',
          default: '5000',
        },
        image_count: { type: 'number', description: 'Number of images to generate', default: 1 },
      },
      required: ['prompt'],
    },
  },
  {
    server: 'aws-kb-retrieval',
    name: 'retrieve_from_aws_kb',
    description: 'Performs retrieval from the AWS Knowledge Base using the provided query and Knowledge Base ID.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The query to perform retrieval on' },
        knowledgeBaseId: { type: 'string', description: 'The ID of the AWS Knowledge Base' },
        n: { type: 'number', default: 3, description: 'Number of results to retrieve' },
      },
      required: ['query', 'knowledgeBaseId'],
    },
  },
];
