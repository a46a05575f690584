/** The variable the host hands an isolated plugin's resolved options in (JSON); the child removes it before importing the plugin. */
export const OPTIONS_VARIABLE = 'TOOLSHED_ISOLATED_OPTIONS';
/**
 * The variable an isolated plugin finds the sandbox's network proxy in (an `http://` URL that
 * takes HTTP CONNECT to any granted `host:port`): inside the sandbox a direct connection fails.
 */
export const PROXY_VARIABLE = 'TOOLSHED_PROXY';
