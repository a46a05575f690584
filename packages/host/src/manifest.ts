// The light entry: core's manifest rules without valibot (listing imports no more of core).
import { checkManifestFile, PluginError, type ManifestField, type ManifestFile } from '@toolshed/core/contract';

export { checkManifestField as readManifestField } from '@toolshed/core/contract';
const { readFileSync } = process.getBuiltinModule('node:fs');
const { relative, resolve } = process.getBuiltinModule('node:path');
export type { ManifestField, ManifestFile, ManifestTool } from '@toolshed/core/contract';

/** Read the generated manifest file and check it agrees with the package.json field. */
export function readManifestFile(packageDir: string, field: ManifestField & { manifest: string }): ManifestFile {
  const file = resolve(packageDir, field.manifest);
  const shown = relative(packageDir, file);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'it is missing' : (error as Error).message;
    throw new PluginError(
      { phase: 'validate', field: 'toolshed.manifest' },
      `cannot read its manifest ${shown}: ${reason}. Rebuild the plugin (its build runs toolshed-manifest).`,
    );
  }
  return checkManifestFile(value, field, shown);
}
