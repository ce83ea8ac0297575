// `/name` as another way to type `:name` (README.md, "Commands"), for people used to clients
// where commands start with a slash. Only the names of real commands are commands: a message
// that starts with a path (`/etc/hosts is a file`) is still a message, and an unknown `/word`
// is not sent by mistake (the input keeps it and says why).
import { META_COMMANDS } from './commands';

export type SlashReading =
  /** A `:` command line to run. */
  | { kind: 'command'; line: string }
  /** Looks like a command but none has that name: not sent. */
  | { kind: 'unknown'; name: string }
  /** A message to the model, with the text to send (`//x` sends `/x`). */
  | { kind: 'message'; text: string };

/** Every name (and short alias) a `:` command answers to, from the command table. */
export function commandNames(commands = META_COMMANDS): Set<string> {
  const names = new Set<string>();
  for (const spec of commands) {
    names.add(spec.name);
    for (const alias of spec.aliases ?? []) names.add(alias);
  }
  return names;
}

const COMMAND_WORD = /^[A-Za-z][\w-]*$/;

/** How a line that may start with `/` is meant; `text` is what was typed (not trimmed). */
export function readSlash(text: string, names: ReadonlySet<string> = commandNames()): SlashReading {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return { kind: 'message', text };
  // `//…` is the way to send a message that starts with a slash.
  if (trimmed.startsWith('//')) return { kind: 'message', text: text.replace('//', '/') };
  const word = trimmed.slice(1).split(/\s/, 1)[0] ?? '';
  if (!COMMAND_WORD.test(word)) return { kind: 'message', text };
  if (names.has(word) || names.has(word.toLowerCase())) return { kind: 'command', line: `:${word.toLowerCase()}${trimmed.slice(1 + word.length)}` };
  return { kind: 'unknown', name: word };
}

export function unknownSlashHint(name: string): string {
  return `/${name} is not a command, not sent (/help lists them; //${name} sends it as a message)`;
}
