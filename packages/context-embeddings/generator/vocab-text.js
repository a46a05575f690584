/** The text the model sees for one vocabulary entry: a continuation piece (`##ing`) is embedded as its bare text. */
export function vocabText(token) {
  if (/^\[(unused\d+|PAD|UNK|CLS|SEP|MASK)\]$/.test(token)) return token;
  return token.startsWith('##') ? token.slice(2) : token;
}
