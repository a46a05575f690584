import { checkPackageName, checkToolName, toolNameFor } from './names.js';
import { initialChangeset, pluginFiles } from './plugin-files.js';
import { findWorkspace } from './workspace.js';
import { UsageError } from '../usage-error.js';
const { existsSync, mkdirSync, readdirSync, writeFileSync } = process.getBuiltinModule('node:fs');
const { dirname, join, relative, resolve } = process.getBuiltinModule('node:path');

interface NewPluginOptions {
  dir?: string;
  tool?: string;
}

/** Write a plugin package (`toolshed new plugin`). */
export function writePlugin(name: string, options: NewPluginOptions): void {
  const packageName = checkPackageName(name);
  const toolName = checkToolName(options.tool ?? toolNameFor(packageName));
  const dir = resolve(options.dir ?? packageName.replace(/^@[^/]+\//, ''));
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new UsageError(`${dir} already exists and is not empty; choose another folder with --dir.`);
  }
  const workspace = findWorkspace(dirname(dir));
  if (workspace?.members.has(packageName)) {
    throw new UsageError(`the workspace at ${workspace.root} already has a package named ${packageName}; choose another name.`);
  }
  const spec = { packageName, toolName, ...(workspace ? { workspace } : {}) };
  const written: string[] = [];
  for (const [file, content] of Object.entries(pluginFiles(spec))) {
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content, { flag: 'wx' });
    written.push(target);
  }
  if (workspace?.changesets) {
    const { file, content } = initialChangeset(spec);
    const target = join(workspace.root, '.changeset', file);
    if (!existsSync(target)) {
      writeFileSync(target, content);
      written.push(target);
    }
  }
  const shown = relative(process.cwd(), dir) || '.';
  const install = workspace ? `pnpm install (from ${relative(process.cwd(), workspace.root) || '.'})` : 'npm install';
  process.stdout.write(
    `Created ${packageName} with the tool ${toolName} in ${shown}${workspace ? ` (inside the workspace at ${workspace.root})` : ''}:\n` +
      written.map((file) => `  ${relative(process.cwd(), file)}\n`).join('') +
      `\nNext:\n  cd ${shown}\n  ${install}\n  npm test\n  npm run build\n`,
  );
}
