import type { Command } from 'commander';

export function registerNew(program: Command): void {
  const command = program.command('new').description('Create something new: a plugin package');
  command
    .command('plugin')
    .description(
      'Write a plugin package: a definePlugin entry with one tool, its tests (with @toolshed/testing), a build and the "toolshed" manifest',
    )
    .argument('<name>', 'the npm package name, e.g. @acme/tool-weather')
    .option('--dir <dir>', 'the folder to write it to (default: the name without its scope, in the current folder)')
    .option('--tool <name>', 'the name of its first tool (default: from the package name)')
    .action(async (name: string, options: { dir?: string; tool?: string }) => {
      // Imported here: scaffolding loads @toolshed/core, which the other commands start without.
      const { writePlugin } = await import('../scaffold/write-plugin.js');
      writePlugin(name, options);
    });
}
