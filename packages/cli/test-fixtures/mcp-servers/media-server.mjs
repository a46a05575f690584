// A small MCP server over stdio whose one tool answers with every kind of content block
// server-everything lacks: audio (a real WAV), an image by embedded resource, and a resource link.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** 8 samples of 8-bit mono PCM at 8 kHz: a whole, playable WAV file. */
function wav() {
  const samples = Buffer.from([128, 160, 192, 160, 128, 96, 64, 96]);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString('base64');
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const CONTENT = [
  { type: 'text', text: 'A beep, a pixel and a link.' },
  { type: 'audio', data: wav(), mimeType: 'audio/wav' },
  { type: 'resource', resource: { uri: 'file:///pixel.png', mimeType: 'image/png', blob: PNG } },
  { type: 'resource_link', uri: 'file:///notes.md', name: 'notes.md', mimeType: 'text/markdown', description: 'The notes.' },
];

const server = new Server({ name: 'media-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'media',
      description: 'Answers with audio, an image resource and a resource link.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, () => ({ content: CONTENT }));
await server.connect(new StdioServerTransport());
