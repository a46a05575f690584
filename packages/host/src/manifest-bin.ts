import { generateManifest } from './generate.js';
const { relative } = process.getBuiltinModule('node:path');
const { parseArgs } = process.getBuiltinModule('node:util');

const USAGE = `Usage: toolshed-manifest [--dir PACKAGE_DIR] [--options JSON]

Writes the plugin's tool definitions to the file named by package.json "toolshed.manifest".
Run it after building the plugin (e.g. "build": "tsc -p tsconfig.build.json && toolshed-manifest").`;

async function main(): Promise<number> {
  let values: { dir?: string; options?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { dir: { type: 'string' }, options: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`toolshed-manifest: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let options: Record<string, unknown> | undefined;
  if (values.options !== undefined) {
    try {
      options = JSON.parse(values.options) as Record<string, unknown>;
    } catch (error) {
      process.stderr.write(`toolshed-manifest: --options is not valid JSON (${(error as Error).message}).\n`);
      return 2;
    }
  }
  try {
    const { file, tools } = await generateManifest(values.dir ?? process.cwd(), options);
    process.stdout.write(`toolshed-manifest: wrote ${relative(process.cwd(), file)} (${tools.join(', ')})\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`toolshed-manifest: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main();
