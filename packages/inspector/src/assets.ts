import { readFile } from 'node:fs/promises';

/** The page's files, shipped in the package's page/ folder: no build step, no CDN, nothing fetched. */
export const ASSETS: Readonly<Record<string, string>> = {
  '/': 'index.html',
  '/app.js': 'app.js',
  '/form.js': 'form.js',
  '/parts.js': 'parts.js',
  '/style.css': 'style.css',
};

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

export const PAGE_DIR = new URL('../page/', import.meta.url);

export async function readAsset(file: string): Promise<{ type: string; body: Buffer }> {
  const body = await readFile(new URL(file, PAGE_DIR));
  return { type: TYPES[file.split('.').pop()!]!, body };
}
