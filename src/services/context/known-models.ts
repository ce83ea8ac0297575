// Context windows of well-known hosted models, for servers that do not report one (OpenAI and
// compatible APIs list model ids only). Matched on the model id's start; the first match wins, so
// longer prefixes come first. Only documented, stable sizes; anything else stays unknown.
const KNOWN: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-5', 400_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude-', 200_000],
  ['gemini-1.5-pro', 2_097_152],
  ['gemini-1.5', 1_048_576],
  ['gemini-2', 1_048_576],
  ['deepseek-chat', 128_000],
  ['deepseek-reasoner', 128_000],
];

/** The documented window of a hosted model id (a provider prefix such as `openai/` is ignored), or undefined. */
export function knownModelWindow(modelId: string): number | undefined {
  const id = modelId.toLowerCase().replace(/^[a-z0-9-]+\//, '');
  return KNOWN.find(([prefix]) => id.startsWith(prefix))?.[1];
}
