import { mkdir, mkdtemp, readdir, readFile, lstat, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolRegistry, type FailureOutcome, type Outcome, type SuccessOutcome } from '@toolshed/core';
import { createReadFileTool } from './index.js';
import type { ReadFileOptions } from './options.js';

/** Text that lives only outside the root or in secret files: it must never reach a model. */
export const SECRET_MARKERS = ['OUTSIDE-SECRET', 'SIBLING-SECRET', 'ENV-SECRET', 'KEY-SECRET', 'GIT-SECRET', 'TOKEN-SECRET'];

export interface TestTree {
  base: string;
  root: string;
  outside: string;
  cleanup(): Promise<void>;
}

async function put(file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/**
 * A project root with ordinary files, secret files and symbolic links
 * (real ones, made here) pointing in and out, next to an outside folder and
 * a sibling whose name starts with the root's name.
 */
export async function makeTestTree(): Promise<TestTree> {
  const base = await mkdtemp(path.join(tmpdir(), 'read-file-'));
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  await put(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
  await put(path.join(base, 'project-evil', 'secret.txt'), 'SIBLING-SECRET\n');

  await put(path.join(root, 'README.md'), '# Project\n\nHello.\n');
  await put(path.join(root, 'src', 'index.ts'), 'export const answer = 42;\n');
  await put(path.join(root, 'src', 'index.test.ts'), 'test\n');
  await put(path.join(root, 'sub', 'deep', 'file.txt'), 'deep\n');
  await put(path.join(root, '.env'), 'API_KEY=ENV-SECRET\n');
  await put(path.join(root, '.env.example'), 'API_KEY=\n');
  await put(path.join(root, 'config', '.env.production'), 'DB=ENV-SECRET\n');
  await put(path.join(root, '.git', 'config'), '[remote] url = GIT-SECRET\n');
  await put(path.join(root, '.git', 'HEAD'), 'ref: GIT-SECRET\n');
  await put(path.join(root, '.ssh', 'id_rsa'), 'KEY-SECRET\n');
  await put(path.join(root, 'keys', 'id_rsa'), 'KEY-SECRET\n');
  await put(path.join(root, 'keys', 'id_ed25519.pub'), 'KEY-SECRET\n');
  await put(path.join(root, 'certs', 'server.pem'), 'KEY-SECRET\n');
  await put(path.join(root, 'certs', 'server.key'), 'KEY-SECRET\n');
  await put(path.join(root, '.npmrc'), '//registry/:_authToken=TOKEN-SECRET\n');
  await put(path.join(root, '.netrc'), 'machine x password TOKEN-SECRET\n');
  await put(path.join(root, '.aws', 'credentials'), 'aws_secret_access_key=TOKEN-SECRET\n');

  const link = (target: string, at: string) => symlink(target, path.join(root, at));
  await link('../outside/secret.txt', 'link-to-outside-file');
  await link(path.join(outside, 'secret.txt'), 'abs-link-to-outside');
  await link('../outside', 'link-to-outside-dir');
  await link('../outside/missing.txt', 'dangling-outside');
  await link('../../outside', 'sub/deep-link');
  await link('..', 'link-to-parent');
  await link('chain-b', 'chain-a');
  await link('../outside/secret.txt', 'chain-b');
  await link('/etc', 'link-to-etc');
  await link('.env', 'link-to-env');
  await link('.git', 'link-to-git');
  await link('../project-evil', 'link-to-sibling');
  await link('README.md', 'readme-link');
  await link('sub/deep', 'deep-dir-link');
  await link('loop-b', 'loop-a');
  await link('loop-a', 'loop-b');
  return { base, root, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** Every entry under `dir`: type, size and content (or link target), to prove a call changed nothing. */
export async function snapshot(dir: string, prefix = ''): Promise<string[]> {
  const lines: string[] = [];
  // Links are recorded, never followed: the tree has loops and a link to /etc.
  for (const name of (await readdir(dir)).sort()) {
    const file = path.join(dir, name);
    const shown = prefix + name;
    const stats = await lstat(file);
    if (stats.isSymbolicLink()) lines.push(`${shown} -> ${await readlink(file)}`);
    else if (stats.isDirectory()) lines.push(`${shown}/`, ...(await snapshot(file, `${shown}/`)));
    else lines.push(`${shown} ${stats.size} ${(await readFile(file)).toString('base64')}`);
  }
  return lines;
}

export function registryFor(options: ReadFileOptions): ToolRegistry {
  return new ToolRegistry().register(createReadFileTool(options));
}

export async function read(registry: ToolRegistry, input: unknown): Promise<Outcome> {
  return registry.dispatch({ name: 'read_file', input });
}

export function expectSuccess(outcome: Outcome): SuccessOutcome & { output: Record<string, unknown> } {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome as SuccessOutcome & { output: Record<string, unknown> };
}

export function expectFailure(outcome: Outcome, code: string): FailureOutcome {
  if (outcome.ok) throw new Error(`expected ${code}, got success: ${JSON.stringify(outcome.output)}`);
  if (outcome.error.code !== code) throw new Error(`expected ${code}, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome;
}
