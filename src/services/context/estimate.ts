// A token estimate for text the model will read, for budgets decided before a request is sent
// (context meter, compaction, tool-definition costs). No tokenizer of the user's model is at hand
// (local models use many), so this counts pieces the way byte-pair tokenizers tend to split text:
// letters in chunks of about four, digits in groups of up to three, every other symbol alone, and
// each non-ASCII character as about one token. Callers calibrate it against the server's reported
// `usage.prompt_tokens` when they have one.

const PIECE = /[A-Za-z]+|\d+|\s+|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|[^\x00-\x7f]/gu;

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(PIECE)) {
    const piece = match[0];
    const first = piece.charCodeAt(0);
    if (first <= 0x20) tokens += piece.length > 1 && piece.includes('\n') ? 1 : 0; // spaces ride on the next word
    else if (first >= 0x30 && first <= 0x39) tokens += Math.ceil(piece.length / 3);
    else if ((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a) tokens += Math.ceil(piece.length / 4);
    else tokens += 1;
  }
  return tokens;
}

/**
 * The estimate, remembered for the texts of the last few requests. A request is measured before
 * it is sent, and in a tool loop every request repeats the one before it plus a call and its
 * result: without this, each of them counted the whole conversation (and every tool definition)
 * again. Two generations of at most MEMO_CHARS characters each: a text is kept while requests
 * still carry it; very long texts are counted each time (a lookup would not save much on them).
 */
const MEMO_CHARS = 8 * 1024 * 1024;
const MEMO_MAX_TEXT = 1024 * 1024;
let recent = new Map<string, number>();
let older = new Map<string, number>();
let recentChars = 0;

export function estimateTokensRemembered(text: string): number {
  if (text.length > MEMO_MAX_TEXT || text.length < 16) return estimateTokens(text);
  let tokens = recent.get(text);
  if (tokens !== undefined) return tokens;
  tokens = older.get(text) ?? estimateTokens(text);
  if (recentChars + text.length > MEMO_CHARS) {
    older = recent;
    recent = new Map();
    recentChars = 0;
  }
  recent.set(text, tokens);
  recentChars += text.length;
  return tokens;
}
