// The floor a search must beat in quality and stay near in speed: count the
// query's words (lower-cased, split at non-letters) found in each tool's name,
// description and parameter names.
function words(text) {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2);
}
export function naiveIndex(tools) {
  const docs = tools.map((tool) => ({
    name: tool.name,
    words: new Set(
      words(`${tool.name.replace(/_/g, ' ')} ${tool.description} ${Object.keys(tool.inputSchema.properties ?? {}).join(' ')}`),
    ),
  }));
  return {
    search(query, limit) {
      const terms = words(query);
      return docs
        .map((doc) => ({ name: doc.name, score: terms.filter((term) => doc.words.has(term)).length }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
  };
}
