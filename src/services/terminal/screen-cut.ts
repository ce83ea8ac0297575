/*
 * A tool result is kept for the transcript only up to limits.displayResultChars (the session log
 * keeps all of it). The cut copy ends with a note saying how many lines and characters were left
 * out, so the folded preview counts the lines of the whole result, not of the part that was kept.
 */
const SCREEN_CUT = /\n… (?:(\d+) more lines? \(\d+ characters?\)|\d+ more characters?) not shown \(limits\.displayResultChars; the session log has all of it\)$/;

function lineStarts(text: string): number {
  if (text.length === 0) return 0;
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The first `maxChars` characters of a tool result and the note on what was left out. */
export function cutForScreen(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const kept = content.slice(0, maxChars);
  // Lines that start in the part left out (a line cut in the middle belongs to the kept part).
  const hiddenLines = lineStarts(content) - lineStarts(kept);
  const rest = content.length - maxChars;
  const chars = `${rest} character${rest === 1 ? '' : 's'}`;
  // Only the rest of the last kept line was cut: there are no more lines to count.
  const what = hiddenLines > 0 ? `${hiddenLines} more line${hiddenLines === 1 ? '' : 's'} (${chars})` : `${rest} more character${rest === 1 ? '' : 's'}`;
  return `${kept}\n… ${what} not shown (limits.displayResultChars; the session log has all of it)`;
}

/** A result cut by cutForScreen: the kept text, the lines left out, and the note itself. */
export function screenCut(result: string): { kept: string; hiddenLines: number; note: string } | undefined {
  const match = SCREEN_CUT.exec(result.slice(-200));
  if (!match) return undefined;
  const note = match[0].slice(1);
  return { kept: result.slice(0, result.length - match[0].length), hiddenLines: Number(match[1] ?? 0), note };
}
