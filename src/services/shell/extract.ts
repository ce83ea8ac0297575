// `CMD: <command>` lines in the model's final answer propose local shell commands (docs/ARCHITECTURE.md, Conversation rules).
// Only lines outside fenced code blocks count: an answer that shows an example script containing
// "CMD:" must not turn that script into proposals.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// Anything up to the line end: a lone CR or U+2028 inside the command (which `.` would not match)
// must not make the proposal vanish; the command frame shows them escaped.
const CMD_LINE = /^ {0,3}CMD: ([^\n]*)$/;

/** A command wrapped whole in one pair of backticks (`CMD: \`ls -la\``) is unwrapped. */
function unwrap(command: string): string {
  const match = /^`([^`]+)`$/.exec(command);
  return match ? match[1]!.trim() : command;
}

/** The proposed commands, in order, without duplicates that follow each other. */
export function extractCommands(answer: string): string[] {
  const commands: string[] = [];
  let fence: string | undefined;
  for (const rawLine of answer.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      // A fence closes with the same character, at least as long, and nothing after it.
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const match = CMD_LINE.exec(line);
    if (!match) continue;
    const command = unwrap(match[1]!.trim());
    if (command.length === 0) continue;
    if (commands[commands.length - 1] !== command) commands.push(command);
  }
  return commands;
}
