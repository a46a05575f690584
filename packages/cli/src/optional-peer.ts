/**
 * Import an optional peer of the CLI (a package only some commands need, left
 * out of a plain install to keep it small). When it is not installed, the
 * error names the feature, the command that installs it, and the npx run that brings it.
 */
export async function importOptionalPeer<T>(name: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && (error as Error).message.includes(`'${name}'`);
    if (!missing) throw error;
    // An npx run installs no optional peer, and no npm install reaches its folder: it names the package itself.
    throw new Error(
      `${feature} needs ${name}, which is not installed where @toolshed/cli is. Run: npm install ${name} ` +
        `(run by npx, name it too: npx -y -p @toolshed/cli -p ${name} toolshed ...)`,
    );
  }
}
