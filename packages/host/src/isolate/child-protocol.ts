/** The variable the host hands an isolated plugin's resolved options in (JSON); the child removes it before importing the plugin. */
export const OPTIONS_VARIABLE = 'TOOLSHED_ISOLATED_OPTIONS';
