import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { defineTool, ToolError, type ToolContext } from '@toolshed/core';
import * as v from 'valibot';
import { binary, fileSystemError, notFound } from './errors.js';
import { findLineRange } from './line-range.js';
import { listEntries } from './nearby-names.js';
import { explain } from './note.js';
import { parseOptions, type ReadFileOptions } from './options.js';
import { createPathPolicy, type PathPolicy } from './path-policy.js';
import { resolveInRoot } from './resolve-path.js';

// Bytes looked at to tell a binary file from text, as git and grep do: a NUL byte means binary.
const SNIFF_BYTES = 8192;

const Input = v.object({
  path: v.pipe(
    v.string(),
    v.minLength(1, 'give the path of a file, e.g. "src/index.ts"'),
    v.maxLength(4096, 'a path is at most 4096 characters'),
    v.description('The file to read, relative to the project root (e.g. "src/index.ts"). An absolute path is accepted if it is inside the project.'),
  ),
  offset: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.check((n) => n !== 0, 'there is no line 0: lines count from 1, and a negative offset counts from the end (-1 is the last line)'),
      v.description('The first line to return, counting from 1 (default 1). A negative number counts from the end: -100 starts at the 100th line from the end.'),
    ),
  ),
  limit: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description('How many lines to return at most (default: as many as the per-call limit allows).')),
  ),
});

const Output = v.object({
  path: v.pipe(v.string(), v.description('The file, relative to the project root.')),
  text: v.pipe(v.string(), v.description('The lines read, joined with "\\n" (CRLF line ends become "\\n"; a BOM is dropped; invalid UTF-8 becomes U+FFFD).')),
  firstLine: v.pipe(v.number(), v.description('Number of the first line returned (0 when none). Negative when counted from the end of the file.')),
  lastLine: v.pipe(v.number(), v.description('Number of the last line returned (0 when none).')),
  hasMore: v.pipe(v.boolean(), v.description('True when the file goes on after lastLine: call again with offset lastLine + 1.')),
  size: v.pipe(v.number(), v.description("The file's size in bytes.")),
  totalLines: v.optional(v.pipe(v.number(), v.description('How many lines the file has, when this call saw them all.'))),
  note: v.optional(v.pipe(v.string(), v.description('Why the text was cut and how to read on, when it was.'))),
});

type Output = v.InferOutput<typeof Output>;

// The same whatever the options: what a model sees is generated into the
// plugin's manifest at build time, before any project has configured it.
const DESCRIPTION =
  'Read a text file of the project. Give `path` relative to the project root. ' +
  'One call returns a limited number of lines and bytes; firstLine and lastLine number the lines returned. ' +
  'When hasMore is true, call again with offset: lastLine + 1 to read on (the note says so, and says when a limit cut the text). ' +
  'For a large file, read only the part you need with offset and limit; a negative offset counts from the end ' +
  '(offset: -50 returns the last 50 lines). Secret files (.env, private keys, credentials, .git) and paths outside ' +
  'the project are refused.';

/**
 * Create the read_file tool. Without a `root` it reads from the current
 * working folder; a relative root is taken from there too.
 */
export function createReadFileTool(options: ReadFileOptions = {}) {
  const settings = parseOptions(options);
  const root = path.resolve(settings.root ?? '.');
  const policy = createPathPolicy(settings.deny, settings.allow);
  const { maxLines, maxBytes } = settings;
  return defineTool({
    name: 'read_file',
    description: DESCRIPTION,
    input: Input,
    output: Output,
    annotations: { title: 'Read file', readOnly: true, idempotent: true },
    run: (input, ctx) =>
      readFile(input, ctx, { root, policy, maxLines, maxBytes }).catch((error: unknown) => {
        throw fileSystemError(input.path, error);
      }),
  });
}

interface Settings {
  root: string;
  policy: PathPolicy;
  maxLines: number;
  maxBytes: number;
}

async function readFile(input: v.InferOutput<typeof Input>, ctx: ToolContext, settings: Settings): Promise<Output> {
  ctx.signal.throwIfAborted();
  const resolved = await resolveInRoot(input.path, settings.root, settings.policy);
  if (resolved.kind === 'missing') throw await notFound(resolved, settings.policy);
  const shown = JSON.stringify(resolved.display || '.');

  const stats = await stat(resolved.real);
  if (stats.isDirectory()) {
    const entries = await listEntries(resolved.real, resolved.display, settings.policy);
    const listed = entries.slice(0, 20).map((entry) => (entry.directory ? `${entry.name}/` : entry.name));
    const more = entries.length > listed.length ? ', ...' : '';
    throw new ToolError(
      'execution_failed',
      `read_file reads files, and ${shown} is a directory` +
        (listed.length > 0 ? ` holding: ${listed.join(', ')}${more}. Call read_file with the path of one of its files.` : ' with no readable files.'),
    );
  }
  if (!stats.isFile()) {
    throw new ToolError('execution_failed', `read_file cannot read ${shown}: it is not a regular file (a device, socket or pipe), and only regular files can be read.`);
  }

  // O_NOFOLLOW: the last part was checked to be no link; refuse if one was swapped in since.
  const file = await open(resolved.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const opened = await file.stat();
    if (opened.ino !== stats.ino || opened.dev !== stats.dev) {
      throw new ToolError('execution_failed', `read_file could not read ${shown}: it changed while being opened. Try again.`);
    }
    const size = opened.size;
    const sniff = Buffer.alloc(Math.min(SNIFF_BYTES, size));
    await file.read(sniff, 0, sniff.length, 0);
    if (sniff.includes(0)) throw binary(shown, size);

    const range = await findLineRange(file, size, {
      offset: input.offset ?? 1,
      lines: Math.min(input.limit ?? settings.maxLines, settings.maxLines),
      maxBytes: settings.maxBytes,
      signal: ctx.signal,
      onProgress: (scanned, total) => ctx.report({ progress: scanned, total, message: `scanned ${scanned} of ${total} bytes` }),
    });
    if ('pastEnd' in range) {
      const { totalLines } = range;
      throw new ToolError(
        'invalid_input',
        totalLines === 0
          ? `offset ${input.offset} is past the end of ${shown}, which is empty.`
          : `offset ${input.offset} is past the end of ${shown}, which has ${totalLines} line${totalLines === 1 ? '' : 's'}. ` +
              `Use an offset from 1 to ${totalLines}, or a negative offset to read from the end.`,
      );
    }
    const buffer = Buffer.alloc(range.end - range.start);
    // Fewer bytes than found means the file shrank meanwhile: show what is there.
    const bytes = buffer.subarray(0, (await file.read(buffer, 0, buffer.length, range.start)).bytesRead);
    if (bytes.includes(0)) throw binary(shown, size);
    ctx.signal.throwIfAborted();

    const decoded = new TextDecoder('utf-8', { ignoreBOM: range.start !== 0 }).decode(bytes);
    const text = decoded.replace(/\r\n/g, '\n').replace(/\n$/, '');
    const firstLine = range.count === 0 ? 0 : range.firstLine;
    const lastLine = range.count === 0 ? 0 : range.firstLine + range.count - 1;
    const hasMore = range.end < size;
    const output: Output = { path: resolved.display, text, firstLine, lastLine, hasMore, size };
    if (range.totalLines !== undefined) output.totalLines = range.totalLines;
    const note = explain(range, { firstLine, lastLine, hasMore, size, limit: input.limit, ...settings });
    if (note) output.note = note;
    return output;
  } finally {
    await file.close();
  }
}
