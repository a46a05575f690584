/**
 * Import an optional peer of the CLI (a package only some commands need, left
 * out of a plain install to keep it small). When it is not installed, the
 * error names the feature and the one command that installs it.
 */
export async function importOptionalPeer<T>(name: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && (error as Error).message.includes(`'${name}'`);
    if (!missing) throw error;
    throw new Error(`${feature} needs ${name}, which is not installed where @toolshed/cli is. Run: npm install ${name}`);
  }
}
