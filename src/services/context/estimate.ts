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
