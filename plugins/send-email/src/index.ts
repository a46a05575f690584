import { definePlugin, pluginOptions } from '@toolshed/core';
import { type SendEmailOptions, SendEmailOptionsSchema } from './options.js';
import { type SendEmailTool, sendEmailTool } from './send-email.js';

export type { SendEmailTool } from './send-email.js';
export { SendEmailOptionsSchema } from './options.js';
export type { SendEmailOptions } from './options.js';
export { SendEmailInput, SendEmailOutput } from './schema.js';

const plugin = definePlugin({
  name: '@toolshed/tool-send-email',
  apiVersion: 1,
  options: SendEmailOptionsSchema,
  tools: (options, host) => [sendEmailTool(options, host)],
});
export default plugin;

/** The send_email tool made in code, its options checked as a host checks them; `cwd` is the base for the outbox and ledger. */
export function createSendEmailTool(options?: SendEmailOptions, host: { cwd: string } = { cwd: process.cwd() }): SendEmailTool {
  return sendEmailTool(pluginOptions(plugin, options), host);
}
