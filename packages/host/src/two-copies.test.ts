import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, HostError, isConfigError, isHostError } from './errors.js';

// The CLI tells a config mistake (exit 2) and a failed plugin report from other faults by
// these errors; a global CLI or a nested install may get them from another copy of host.
// This suite is the first copy (the source); the second is the built package in a folder of its own.
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let folder: string;
let other: typeof import('./index.js');

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-host-copy-'));
  const copy = path.join(folder, 'host');
  cpSync(path.join(packageDir, 'dist'), path.join(copy, 'dist'), { recursive: true });
  cpSync(path.join(packageDir, 'package.json'), path.join(copy, 'package.json'));
  symlinkSync(path.join(packageDir, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  other = (await import(pathToFileURL(path.join(copy, 'dist', 'index.js')).href)) as typeof import('./index.js');
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('two copies of host in one process', () => {
  it("recognises the other copy's ConfigError from a config file that cannot be used", async () => {
    writeFileSync(path.join(folder, 'package.json'), '{"name":"outer"}');
    const config = path.join(folder, 'toolshed.config.json');
    writeFileSync(config, '{"plugins": [');
    const error: unknown = await other.createHost({ cwd: folder, config }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(isConfigError(error)).toBe(true);
    expect(isHostError(error)).toBe(false);
  });

  it("recognises the other copy's HostError, and neither error by its name alone", () => {
    expect(isHostError(new other.HostError([]))).toBe(true);
    expect(other.isHostError(new HostError([]))).toBe(true);
    expect(isConfigError(new other.HostError([]))).toBe(false);
    expect(isConfigError(Object.assign(new Error('bad config'), { name: 'ConfigError', file: 'x.json' }))).toBe(false);
    expect(isHostError(Object.assign(new Error('failed'), { name: 'HostError', plugins: [] }))).toBe(false);
    expect(isHostError(null)).toBe(false);
  });
});
