export { startInspector } from './server.js';
export type { Inspector, InspectorOptions } from './server.js';
export type { Inspected } from './inspected.js';
