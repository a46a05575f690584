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
});
