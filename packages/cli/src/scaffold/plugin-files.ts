import type { Workspace } from './workspace.js';

export interface PluginSpec {
  packageName: string;
  toolName: string;
  /** Set when the package lands in a pnpm workspace. */
  workspace?: Workspace;
}

// Ranges a standalone plugin gets: the releases this CLI was built and tested with.
const RANGES: Record<string, string> = {
  '@toolshed/core': '^1.0.0',
  '@toolshed/host': '^1.0.0',
  '@toolshed/testing': '^1.0.0',
  '@types/node': '^20.19.0',
  typescript: '~5.9.3',
  valibot: '^1.5.0',
  vitest: '^4.1.12',
};

function range(name: string, workspace: Workspace | undefined): string {
  return workspace?.members.has(name) ? 'workspace:*' : RANGES[name]!;
}

function camel(name: string): string {
  return name.replace(/[_-]+([a-zA-Z0-9])/g, (_, char: string) => char.toUpperCase());
}

function packageJson({ packageName, toolName, workspace }: PluginSpec): string {
  const dev = ['@toolshed/core', '@toolshed/host', '@toolshed/testing', '@types/node', 'typescript', 'vitest'];
  const pkg = {
    name: packageName,
    version: '0.1.0',
    description: `Toolshed plugin with the \`${toolName}\` tool.`,
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    engines: { node: '^20.19.0 || >=22.12.0' },
    keywords: ['toolshed', 'toolshed-plugin'],
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    files: ['dist', '!dist/**/*.test.*'],
    // Read by hosts without running the plugin; the build writes the manifest file.
    // Permissions: what the plugin needs when it runs isolated; none until its code needs some.
    toolshed: {
      apiVersion: 1,
      tools: [toolName],
      manifest: './dist/toolshed.json',
      permissions: { read: [], write: [], net: [], env: [], spawn: false },
    },
    scripts: {
      build: 'tsc -p tsconfig.build.json && toolshed-manifest',
      typecheck: 'tsc -p tsconfig.json --noEmit',
      test: 'vitest run',
      // npm pack and npm publish build first: a tarball without dist/ is a plugin without code.
      prepack: 'npm run build',
    },
    peerDependencies: { '@toolshed/core': '^1' },
    dependencies: { valibot: range('valibot', workspace) },
    devDependencies: Object.fromEntries(dev.map((name) => [name, range(name, workspace)])),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023"],
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "types": ["node"],
    "strict": true,
    "declaration": true,
    "skipLibCheck": true,
    "isolatedModules": true,
    "verbatimModuleSyntax": true,
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
`;

const TSCONFIG_BUILD = `{
  "extends": "./tsconfig.json",
  "exclude": ["src/**/*.test.ts"]
}
`;

function toolSource({ toolName }: PluginSpec): string {
  return `import { defineTool } from '@toolshed/core';
import * as v from 'valibot';

/** Replace with your tool: the description is what a model reads to decide when to call it. */
export const ${camel(toolName)} = defineTool({
  name: '${toolName}',
  description: 'Count the words and characters in a text. Use it when you need the length of a text.',
  input: v.object({
    text: v.pipe(v.string(), v.maxLength(100_000), v.description('The text to count.')),
  }),
  output: v.object({ words: v.number(), characters: v.number() }),
  annotations: { readOnly: true, idempotent: true },
  run: ({ text }) => ({
    words: text.split(/\\s+/).filter(Boolean).length,
    characters: [...text].length,
  }),
});
`;
}

function indexSource({ packageName, toolName }: PluginSpec): string {
  return `import { definePlugin } from '@toolshed/core';
import { ${camel(toolName)} } from './${toolName}.js';

export { ${camel(toolName)} };

export default definePlugin({
  name: '${packageName}',
  apiVersion: 1,
  tools: [${camel(toolName)}],
});
`;
}

function testSource({ toolName }: PluginSpec): string {
  return `import { ToolRegistry } from '@toolshed/core';
import { expectConformance } from '@toolshed/testing';
import { describe, expect, it } from 'vitest';
import plugin, { ${camel(toolName)} } from './index.js';

describe('${toolName}', () => {
  it('passes the Toolshed conformance checks', async () => {
    await expectConformance(plugin, { samples: { ${toolName}: [{ text: 'hello plugin world' }, { text: '' }] } });
  });

  it('counts words and characters', async () => {
    const registry = new ToolRegistry().register(${camel(toolName)});
    const outcome = await registry.dispatch({ name: '${toolName}', input: { text: 'two words' } });
    expect(outcome).toMatchObject({ ok: true, output: { words: 2, characters: 9 } });
  });

  it('tells a model what was wrong with its input', async () => {
    const registry = new ToolRegistry().register(${camel(toolName)});
    const outcome = await registry.dispatch({ name: '${toolName}', input: { text: 42 } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'Invalid input for ${toolName}.text: expected string, received number' } });
  });
});
`;
}

function readme({ packageName, toolName }: PluginSpec): string {
  return `# ${packageName}

A [Toolshed](https://github.com/toolshed-dev/toolshed#readme) plugin with the \`${toolName}\` tool.
ESM-only, for Node 20.19+ or Node 22.12+ (which load it from \`require()\` too).

## Use it

In a project with the Toolshed CLI, install the plugin; the host finds it among
the project's dependencies by the \`"toolshed"\` field of its package.json:

\`\`\`sh
npm install @toolshed/cli ${packageName}
npx @toolshed/cli list
npx @toolshed/cli call ${toolName} '{"text": "hello world"}'
\`\`\`

## Develop it

\`\`\`sh
npm install
npm test          # your tests and the @toolshed/testing conformance checks
npm run build     # compiles to dist/ and writes dist/toolshed.json (the manifest)
npm pack          # builds first (prepack), so the tarball always has dist/
npm publish       # builds first too
\`\`\`

Keep \`"toolshed".tools\` in package.json the same as the tools the plugin
offers: the build fails with the difference when they drift apart.
`;
}

const GITIGNORE = `node_modules/
dist/
`;

function changeset({ packageName }: PluginSpec): string {
  return `---
"${packageName}": minor
---

New plugin: ${packageName}.
`;
}

/** Every file of a new plugin package, by path relative to its folder. */
export function pluginFiles(spec: PluginSpec): Record<string, string> {
  return {
    'package.json': packageJson(spec),
    'tsconfig.json': TSCONFIG,
    'tsconfig.build.json': TSCONFIG_BUILD,
    'README.md': readme(spec),
    '.gitignore': GITIGNORE,
    'src/index.ts': indexSource(spec),
    [`src/${spec.toolName}.ts`]: toolSource(spec),
    'src/index.test.ts': testSource(spec),
  };
}

/** A changeset announcing the new package, for workspaces that release with changesets. */
export function initialChangeset(spec: PluginSpec): { file: string; content: string } {
  const slug = spec.packageName.replace(/^@/, '').replace(/[^a-z0-9]+/g, '-');
  return { file: `${slug}-initial.md`, content: changeset(spec) };
}
