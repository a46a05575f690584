import { definePlugin } from '@toolshed/core';
import { SendEmailOptionsSchema } from './options.js';
import { createSendEmailTool } from './send-email.js';

export { createSendEmailTool } from './send-email.js';
export type { SendEmailTool } from './send-email.js';
export { SendEmailOptionsSchema } from './options.js';
export type { SendEmailOptions } from './options.js';
export { SendEmailInput, SendEmailOutput } from './schema.js';

export default definePlugin({
  name: '@toolshed/tool-send-email',
  apiVersion: 1,
  options: SendEmailOptionsSchema,
  tools: (options, host) => [createSendEmailTool(options, host)],
});
