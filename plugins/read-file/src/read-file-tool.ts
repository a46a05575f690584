import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { defineTool, isToolError, ToolError, type ToolContext, withParts, type WithParts } from '@toolshed/core';
import * as v from 'valibot';
import { binary, denied, fileSystemError, notFound } from './errors.js';
import { findLineRange } from './line-range.js';
import { mediaOf, readMedia } from './media.js';
import { createTwinSearch } from './hard-links.js';
import { listEntries, type LinkCheck } from './nearby-names.js';
import { explain, inUnits } from './note.js';
import { type HardLinks, openChecked } from './open-checked.js';
import type { ResolvedReadFileOptions } from './options.js';
import { createPathPolicy, type PathPolicy } from './path-policy.js';
import { fixedRoot, resolveInRoot, type Root } from './resolve-path.js';
import { secretIn, secretReason } from './secret-content.js';

// Bytes looked at to tell a binary file from text, as git and grep do: a NUL byte means binary.
// A private key block starting in them refuses the whole file, whatever part is asked for.
const SNIFF_BYTES = 8192;
// Read past the sniff so that a key block starting near its end is seen with its key data.
const SNIFF_MARGIN = 2048;
// Also looked at before the lines returned: a key's data a few lines at a time, from any
// line of a key block up to this long (an RSA key of 8192 bits), still has its marker in view.
const KEY_CONTEXT = 8192;

const Input = v.object({
  path: v.pipe(
    v.string(),
    v.minLength(1, 'give the path of a file, e.g. "src/index.ts"'),
    // Checked at dispatch, not sent: no model needs telling, in every request, that 4096 is the most.
    v.check((path) => path.length <= 4096, 'a path is at most 4096 characters'),
    v.description('Relative to the project root.'),
  ),
  offset: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.check((n) => n !== 0, 'there is no line 0: lines count from 1, and a negative offset counts from the end (-1 is the last line)'),
      v.description('First line, from 1 (default). Negative counts from the end.'),
    ),
  ),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Most lines to return.'))),
});

// The fields explain themselves to a model, and the tool's description says how to page; what
// `text` normalises (CRLF, BOM, invalid UTF-8) and what the numbers mean is in the README.
// Every word here is sent with each MCP tools/list. Images and PDFs are not mentioned in the
// description (every request would pay for it): the output's note says one is attached.
const Output = v.object({
  path: v.string(),
  text: v.string(),
  firstLine: v.number(),
  lastLine: v.number(),
  hasMore: v.boolean(),
  size: v.number(),
  totalLines: v.optional(v.number()),
  note: v.optional(v.pipe(v.string(), v.description('Why the text was cut, and how to read on.'))),
});

type Output = v.InferOutput<typeof Output>;

// The same whatever the options: what a model sees is generated into the
// plugin's manifest at build time, before any project has configured it.
const DESCRIPTION =
  'Read a text file of the project, a page of lines per call. If hasMore, call again with offset: lastLine + 1; ' +
  'offset -50 gives the last 50 lines. Secret files and paths outside the project are refused.';

/**
 * The read_file tool for options its schema has parsed (in core, once). Without a `root` it
 * reads from the current working folder; a relative root is taken from there too.
 */
export function readFileTool(settings: ResolvedReadFileOptions) {
  const root = fixedRoot(path.resolve(settings.root ?? '.'));
  const policy = createPathPolicy(settings.deny, settings.allow);
  const hardLinks: HardLinks = { policy: settings.hardLinks, search: createTwinSearch(policy) };
  return defineTool({
    name: 'read_file',
    description: DESCRIPTION,
    input: Input,
    output: Output,
    annotations: { title: 'Read file', readOnly: true, idempotent: true },
    parts: ['image', 'file'],
    timeoutMs: settings.timeoutMs,
    run: (input, ctx) =>
      readFile(input, ctx, { ...settings, root, policy, hardLinks }).catch((error: unknown) => {
        throw fileSystemError(input.path, error);
      }),
  });
}

type Settings = Pick<ResolvedReadFileOptions, 'maxLines' | 'maxBytes' | 'maxScanBytes' | 'maxMediaBytes'> & {
  root: Root;
  policy: PathPolicy;
  hardLinks: HardLinks;
};

async function readFile(input: v.InferOutput<typeof Input>, ctx: ToolContext, settings: Settings): Promise<Output | WithParts<Output>> {
  ctx.signal.throwIfAborted();
  const { root, policy } = settings;
  // A link in a listing is shown only when reading through it would be allowed.
  const linkAllowed: LinkCheck = (real) =>
    resolveInRoot(real, root, policy).then(
      () => true,
      (error: unknown) => !(isToolError(error) && error.code === 'denied'),
    );
  const resolved = await resolveInRoot(input.path, root, policy);
  if (resolved.kind === 'missing') throw await notFound(resolved, policy, linkAllowed);
  const shown = JSON.stringify(resolved.display || '.');

  const opened = await openChecked(input.path, resolved, policy, settings.hardLinks);
  try {
    if (opened.kind === 'directory') {
      const entries = await listEntries(opened.listPath, opened.realRel, policy, linkAllowed);
      const listed = entries.slice(0, 20).map((entry) => (entry.directory ? `${entry.name}/` : entry.name));
      const more = entries.length > listed.length ? ', ...' : '';
      throw new ToolError(
        'execution_failed',
        `read_file reads files, and ${shown} is a directory` +
          (listed.length > 0
            ? ` holding: ${listed.join(', ')}${more}. Call read_file with the path of one of its files.`
            : ' with no readable files.'),
      );
    }
    return await readLines(input, ctx, settings, opened.handle, opened.size, shown, resolved.display);
  } finally {
    await opened.handle.close();
  }
}

async function readLines(
  input: v.InferOutput<typeof Input>,
  ctx: ToolContext,
  settings: Settings,
  file: FileHandle,
  size: number,
  shown: string,
  display: string,
): Promise<Output | WithParts<Output>> {
  const head = Buffer.alloc(Math.min(SNIFF_BYTES + SNIFF_MARGIN, size));
  const headBytes = head.subarray(0, (await file.read(head, 0, head.length, 0)).bytesRead);
  refuseSecret(input.path, headBytes);
  const media = mediaOf(headBytes);
  if (media) {
    const { part, note } = await readMedia(file, media, size, shown, display, settings.maxMediaBytes);
    return withParts({ path: display, text: '', firstLine: 0, lastLine: 0, hasMore: false, size, note }, [part]);
  }
  if (headBytes.subarray(0, SNIFF_BYTES).includes(0)) throw binary(shown, size);

  const range = await findLineRange(file, size, {
    offset: input.offset ?? 1,
    lines: Math.min(input.limit ?? settings.maxLines, settings.maxLines),
    maxBytes: settings.maxBytes,
    maxScanBytes: settings.maxScanBytes,
    signal: ctx.signal,
    onProgress: (scanned, total) => ctx.report({ progress: scanned, total, message: `scanned ${scanned} of ${total} bytes` }),
  });
  if (range.kind === 'pastEnd') {
    const { totalLines } = range;
    throw new ToolError(
      'invalid_input',
      totalLines === 0
        ? `offset ${input.offset} is past the end of ${shown}, which is empty.`
        : `offset ${input.offset} is past the end of ${shown}, which has ${totalLines} line${totalLines === 1 ? '' : 's'}. ` +
            `Use an offset from 1 to ${totalLines}, or a negative offset to read from the end.`,
    );
  }
  if (range.kind === 'beyondScan') throw beyondScan(input.offset ?? 1, shown, size, settings.maxScanBytes, range);
  const buffer = Buffer.alloc(range.end - range.start);
  // Fewer bytes than found means the file shrank meanwhile: show what is there.
  const bytes = buffer.subarray(0, (await file.read(buffer, 0, buffer.length, range.start)).bytesRead);
  if (range.start > SNIFF_BYTES) {
    const before = Buffer.alloc(Math.min(KEY_CONTEXT, range.start));
    const read = await file.read(before, 0, before.length, range.start - before.length);
    refuseSecret(input.path, Buffer.concat([before.subarray(0, read.bytesRead), bytes]));
  } else if (range.end > headBytes.length) {
    refuseSecret(input.path, bytes);
  }
  if (bytes.includes(0)) throw binary(shown, size);
  ctx.signal.throwIfAborted();

  const decoded = new TextDecoder('utf-8', { ignoreBOM: range.start !== 0 }).decode(bytes);
  const text = decoded.replace(/\r\n/g, '\n').replace(/\n$/, '');
  const firstLine = range.count === 0 ? 0 : range.firstLine;
  const lastLine = range.count === 0 ? 0 : range.firstLine + range.count - 1;
  const hasMore = range.end < size;
  const output: Output = { path: display, text, firstLine, lastLine, hasMore, size };
  if (range.totalLines !== undefined) output.totalLines = range.totalLines;
  const note = explain(range, { firstLine, lastLine, hasMore, size, limit: input.limit, ...settings });
  if (note) output.note = note;
  return output;
}

function refuseSecret(input: string, bytes: Buffer): void {
  const secret = secretIn(bytes.toString('latin1'));
  if (secret) throw denied(input, secretReason(secret));
}

/** The line asked for lies past what one call scans: say where the budget ended and what can be read instead. */
function beyondScan(
  offset: number,
  shown: string,
  size: number,
  maxScanBytes: number,
  range: { from: 'start' | 'end'; lines: number },
): ToolError {
  const budget = inUnits(maxScanBytes);
  if (range.from === 'end') {
    return new ToolError(
      'execution_failed',
      `read_file cannot find where the last line of ${shown} starts: it is longer than the ${budget} read_file scans from the end in one call. ` +
        'Read the file from its start with a positive offset (offset: 1) instead.',
    );
  }
  return new ToolError(
    'execution_failed',
    `line ${offset} of ${shown} lies beyond the first ${budget} of the file (${size} bytes), which is as far as read_file scans in one call; ` +
      `those ${budget} hold ${range.lines} line${range.lines === 1 ? '' : 's'}. Read the end of the file with a negative offset (offset: -100 returns its last 100 lines), ` +
      'or ask the user for the part you need.',
  );
}
