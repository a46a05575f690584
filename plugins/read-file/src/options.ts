import * as v from 'valibot';

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 100 * 1024;
// A search for a line scans at most this much, from the start or from the end, so that
// one call's CPU stays bounded however large the file (scan-budget.test.ts).
export const DEFAULT_MAX_SCAN_BYTES = 256 * 1024 * 1024;
// The registry stops a call after this long; the scan budget keeps a call far below it, so
// reaching it means a stalled disk or network file system, not a large file.
export const DEFAULT_TIMEOUT_MS = 30_000;
// The smallest per-image limit among the model APIs (Anthropic's): a larger image would be
// read only to be refused by the API.
export const DEFAULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024;

const positiveInteger = v.pipe(v.number(), v.integer(), v.minValue(1));

/** Host-side settings for read_file; a model never sees them. */
export const ReadFileOptionsSchema = v.optional(
  v.strictObject({
    /** The folder files are read from; relative to the host's working folder. Default: that folder. */
    root: v.optional(v.pipe(v.string(), v.minLength(1))),
    /** Extra .gitignore-style patterns refused on top of the built-in deny list. */
    deny: v.optional(v.array(v.string()), []),
    /** When given, only paths matching one of these .gitignore-style patterns can be read. */
    allow: v.optional(v.array(v.string())),
    /** The most bytes of file content one call returns. */
    maxBytes: v.optional(positiveInteger, DEFAULT_MAX_BYTES),
    /** The most lines one call returns. */
    maxLines: v.optional(positiveInteger, DEFAULT_MAX_LINES),
    /** The most bytes one call scans to find its first line, from the start or from the end. */
    maxScanBytes: v.optional(positiveInteger, DEFAULT_MAX_SCAN_BYTES),
    /** The largest image or PDF one call sends (whole, as an attachment); larger ones are refused. */
    maxMediaBytes: v.optional(positiveInteger, DEFAULT_MAX_MEDIA_BYTES),
    /** Files with several names (hard links): refused when one name is denied (`deny-secrets`), or always (`deny-all`). */
    hardLinks: v.optional(v.picklist(['deny-secrets', 'deny-all']), 'deny-secrets'),
    /** The tool's default timeout, applied by the registry; a dispatch may set its own. */
    timeoutMs: v.optional(positiveInteger, DEFAULT_TIMEOUT_MS),
  }),
  {},
);

export type ReadFileOptions = v.InferInput<typeof ReadFileOptionsSchema>;
export type ResolvedReadFileOptions = v.InferOutput<typeof ReadFileOptionsSchema>;
