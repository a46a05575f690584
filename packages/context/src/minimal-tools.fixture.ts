import type { ToolDefinition } from '@toolshed/core';

const addresses = (description: string) => ({
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  description,
});

/**
 * The bundled tools as a careful person would write them by hand: the same
 * contract (parameters, types, required fields, the output's structure), a
 * short description that keeps what a model needs (paging, refusals, the
 * outbox), a few words for each parameter whose name does not say it all, the
 * same annotations (approval depends on them), and nothing else: no examples,
 * no constraints, no output field descriptions.
 * The bundled tools are held within 1.25 times this in every format
 * (src/lean.test.ts).
 */
export const MINIMAL_TOOLS: ToolDefinition[] = [
  {
    name: 'echo',
    description: 'Return the given text, to check that tool calls work.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnly: true, idempotent: true },
  },
  {
    name: 'read_file',
    description:
      'Read a text file of the project, a page of lines per call. If hasMore, call again with offset lastLine + 1; a negative offset counts from the end. Secret files and paths outside the project are refused.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Relative to the project root.' },
        offset: { type: 'integer', description: 'First line, from 1.' },
        limit: { type: 'integer', description: 'Most lines to return.' },
      },
      required: ['path'],
    },
    outputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        text: { type: 'string' },
        firstLine: { type: 'number' },
        lastLine: { type: 'number' },
        hasMore: { type: 'boolean' },
        size: { type: 'number' },
        totalLines: { type: 'number' },
        note: { type: 'string' },
      },
      required: ['path', 'text', 'firstLine', 'lastLine', 'hasMore', 'size'],
    },
    annotations: { title: 'Read file', readOnly: true, idempotent: true },
  },
  {
    name: 'send_email',
    description:
      'Send a plain-text email. Addresses off the allow list are refused. Without an SMTP server it goes to a local outbox instead.',
    inputSchema: {
      type: 'object',
      properties: {
        to: addresses('An address or a list.'),
        cc: addresses('An address or a list.'),
        subject: { type: 'string' },
        body: { type: 'string' },
        replyTo: { type: 'string' },
      },
      required: ['to', 'subject', 'body'],
    },
    outputSchema: {
      type: 'object',
      properties: {
        messageId: { type: 'string' },
        accepted: { type: 'array', items: { type: 'string' } },
        rejected: {
          type: 'array',
          items: {
            type: 'object',
            properties: { address: { type: 'string' }, reason: { type: 'string' } },
            required: ['address', 'reason'],
          },
        },
        delivery: {
          oneOf: [
            {
              type: 'object',
              properties: { via: { const: 'smtp' }, host: { type: 'string' }, port: { type: 'number' }, response: { type: 'string' } },
              required: ['via', 'host', 'port', 'response'],
            },
            { type: 'object', properties: { via: { const: 'outbox' }, file: { type: 'string' } }, required: ['via', 'file'] },
          ],
        },
      },
      required: ['messageId', 'accepted', 'rejected', 'delivery'],
    },
    annotations: { title: 'Send email', destructive: true, openWorld: true, idempotent: false },
  },
];
