import * as v from 'valibot';

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 100 * 1024;

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
  }),
  {},
);

export type ReadFileOptions = v.InferInput<typeof ReadFileOptionsSchema>;
export type ResolvedReadFileOptions = v.InferOutput<typeof ReadFileOptionsSchema>;

/** Validate options given in code, with an error that names the field. */
export function parseOptions(options: ReadFileOptions): ResolvedReadFileOptions {
  const parsed = v.safeParse(ReadFileOptionsSchema, options);
  if (!parsed.success) {
    throw new TypeError(`@toolshed/tool-read-file: invalid options: ${v.summarize(parsed.issues)}`);
  }
  return parsed.output;
}
