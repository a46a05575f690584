import { definePlugin } from '@toolshed/core';
import { echo } from './echo.js';

export { echo };

export default definePlugin({
  name: '@toolshed/tool-echo',
  apiVersion: 1,
  tools: [echo],
});
