import { type ContentPart, defineTool, type Outcome, ToolRegistry, withParts } from '@toolshed/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { measureResult } from './result-cost.js';
import { loadO200k } from './tokenizer.js';

/** A PNG's signature and header chunk for the given size, then filler: enough for a reader of its size. */
function png(width: number, height: number, filler = 0): string {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4);
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, ihdr, Buffer.alloc(filler, 7)]).toString('base64');
}

async function outcomeWith(parts: ContentPart[]): Promise<Outcome> {
  const registry = new ToolRegistry().register(
    defineTool({
      name: 'shot',
      description: 'd',
      input: v.object({}),
      parts: ['image', 'audio'],
      run: () => withParts('A screenshot.', parts),
    }),
  );
  return registry.dispatch({ name: 'shot', input: {} });
}

describe('measureResult', () => {
  it.each([
    ['openai', 765, 'openai-tiles'],
    ['openai-responses', 765, 'openai-tiles'],
    ['anthropic', 2459, 'anthropic-pixels'],
    ['gemini', 6192, 'gemini-tiles'],
  ] as const)("counts a 4000x3000 image in %s as %i tokens, by the API's own rule", async (format, tokens, rule) => {
    const report = await measureResult(await outcomeWith([{ type: 'image', mimeType: 'image/png', data: png(4000, 3000) }]), { format });
    expect(report.parts).toEqual([
      { index: 0, type: 'image', mimeType: 'image/png', bytes: 33, counted: true, rule, width: 4000, height: 3000, tokens },
    ]);
    expect(report.tokens).toBe(report.text.tokens + tokens);
    expect(report.text.tokens).toBeLessThan(10);
  });

  it('counts a 1 MB image by its pixels, not as the base64 a model would otherwise read', async () => {
    const data = png(1024, 1024, 1024 * 1024);
    const report = await measureResult(await outcomeWith([{ type: 'image', mimeType: 'image/png', data }]), { format: 'openai' });
    expect(report.tokens).toBe(report.text.tokens + 85 + 170 * 4);
    const asText = (await loadO200k())(data);
    expect(asText).toBeGreaterThan(100 * report.tokens);
  });

  it('lists parts no rule counts with the reason', async () => {
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE')]).toString('base64');
    const report = await measureResult(await outcomeWith([{ type: 'audio', mimeType: 'audio/wav', data: wav }]), { format: 'gemini' });
    expect(report.parts).toEqual([
      { index: 0, type: 'audio', mimeType: 'audio/wav', bytes: 12, counted: false, reason: 'no rule counts an audio part (audio/wav)' },
    ]);
  });
});
