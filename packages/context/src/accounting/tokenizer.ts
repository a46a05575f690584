/** Counts tokens in a text. */
export type CountTokens = (text: string) => number;

let loading: Promise<CountTokens> | undefined;

/**
 * OpenAI's o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o-series), loaded on
 * first use: its tables are megabytes, and only accounting needs them.
 */
export function loadO200k(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => {
    // A description may well contain "<|endoftext|>"; it is sent as plain text, so count it as such.
    const plain = { disallowedSpecial: new Set<string>() };
    return (text: string) => countTokens(text, plain);
  });
  return loading;
}
