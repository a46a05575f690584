import { describe, expect, it } from 'vitest';
import { toOutput } from './result.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('toOutput', () => {
  it('keeps an all-text answer as one string and no parts', () => {
    expect(
      toOutput(
        {
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        'shot',
        'browser',
      ),
    ).toEqual({ output: 'a\nb', parts: [] });
  });

  it('names a resource without a MIME type by its bytes, and keeps structuredContent as the output beside parts', () => {
    const result = toOutput(
      { content: [{ type: 'resource', resource: { uri: 'file:///a.png', blob: PNG } }], structuredContent: { width: 1 } },
      'shot',
      'browser',
    );
    expect(result).toEqual({ output: { width: 1 }, parts: [{ type: 'image', mimeType: 'image/png', data: PNG, uri: 'file:///a.png' }] });
  });

  it('says which blocks of a kind it does not know were left out, instead of dropping them unsaid', () => {
    const result = toOutput(
      {
        content: [
          { type: 'text', text: 'Done.' },
          { type: 'hologram', data: 'x' },
        ],
      },
      'shot',
      'browser',
    );
    expect(result).toEqual({ output: 'Done.\n[browser also sent content Toolshed cannot pass on: hologram.]', parts: [] });
  });

  it('passes an image without a MIME type on for the registry to refuse by name', () => {
    expect(toOutput({ content: [{ type: 'image', data: PNG }] }, 'shot', 'browser').parts).toEqual([
      { type: 'image', mimeType: '', data: PNG },
    ]);
  });

  it("takes a part's name from the block's _meta, as toolshed serve sends it, and nothing else from there", () => {
    const result = toOutput(
      {
        content: [
          { type: 'image', data: PNG, mimeType: 'image/png', _meta: { 'toolshed/name': 'shot.png' } },
          { type: 'resource', resource: { uri: 'file:///a.png', blob: PNG }, _meta: { 'toolshed/name': 'a.png' } },
          { type: 'image', data: PNG, mimeType: 'image/png', _meta: { 'toolshed/name': 42, other: 'x' } },
          { type: 'resource_link', uri: 'file:///b.md', name: 'b.md', _meta: { 'toolshed/name': 'not this' } },
        ],
      },
      'shot',
      'browser',
    );
    expect(result.parts).toEqual([
      { type: 'image', mimeType: 'image/png', data: PNG, name: 'shot.png' },
      { type: 'image', mimeType: 'image/png', data: PNG, uri: 'file:///a.png', name: 'a.png' },
      { type: 'image', mimeType: 'image/png', data: PNG },
      { type: 'file', uri: 'file:///b.md', name: 'b.md' },
    ]);
  });
});
