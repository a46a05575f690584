type Mcp = typeof import('@toolshed/mcp');

/**
 * `@toolshed/mcp` (and the MCP SDK under it, about 100 packages) is an optional
 * peer of the CLI: only `serve` needs it, so a project that only lists and calls
 * tools does not install it. Loaded here, when `serve` runs.
 */
export async function loadMcp(): Promise<Mcp> {
  try {
    return await import('@toolshed/mcp');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /['"]@toolshed\/mcp['"]/.test((error as Error).message);
    if (!missing) throw error;
    throw new Error('serve needs @toolshed/mcp, which is not installed where @toolshed/cli is. Run: npm install @toolshed/mcp');
  }
}
