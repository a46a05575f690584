export { createMcpServer } from './server.js';
export type { McpServerOptions, McpToolSearch } from './server.js';
export { serveStdio } from './stdio.js';
export type { StdioOptions, StdioService } from './stdio.js';
export { serveHttp } from './http.js';
export type { HttpOptions, HttpService } from './http.js';
export { parseListenAddress } from './listen-address.js';
export { parseOrigin } from './origin-check.js';
export type { ListenAddress } from './listen-address.js';
