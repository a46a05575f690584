/**
 * The optional meaning ranker: `@toolshed/context-embeddings`, an optional peer dependency.
 * Imported only when a search is set up, so a project without it loads nothing more.
 */
export interface TextEmbedder {
  /** The text's vector, of length 1, comparable to any other by a dot product. */
  embed(text: string): Float32Array;
  /** Whether the table holds the word whole: a query without one such word says nothing about meaning. */
  knows(word: string): boolean;
}

export const EMBEDDINGS_PACKAGE = '@toolshed/context-embeddings';

const loads = new Map<string, Promise<TextEmbedder | undefined>>();

function isMissing(error: unknown, specifier: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(message).includes(specifier);
}

/**
 * The installed embedder, or undefined when the package is not installed (then search ranks
 * with BM25 alone). Anything else that goes wrong loading it (a damaged table) is thrown.
 */
export function loadEmbedder(specifier: string = EMBEDDINGS_PACKAGE): Promise<TextEmbedder | undefined> {
  let load = loads.get(specifier);
  if (load === undefined) {
    load = import(specifier).then(
      (module: { loadEmbedder: () => TextEmbedder }) => module.loadEmbedder(),
      (error: unknown) => {
        if (isMissing(error, specifier)) return undefined;
        throw error;
      },
    );
    loads.set(specifier, load);
  }
  return load;
}
