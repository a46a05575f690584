import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ASSETS, PAGE_DIR } from './assets.js';

describe('the page', () => {
  it('ships every file it serves, under 200 kB gzipped, with nothing fetched from elsewhere', () => {
    const files = readdirSync(PAGE_DIR);
    expect(files.sort()).toEqual(Object.values(ASSETS).sort());
    const gzipped = files.reduce((sum, file) => sum + gzipSync(readFileSync(new URL(file, PAGE_DIR))).length, 0);
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(200 * 1024);
    for (const file of files) expect(readFileSync(new URL(file, PAGE_DIR), 'utf8')).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});
