/**
 * Tab completion for `:` commands: the command name, then its subcommand or argument (model
 * names, server aliases, tool names) from what the session knows right now.
 */

export type ArgumentKind = 'model' | 'alias' | 'tool' | 'session' | 'root' | 'prompt';

export interface CommandSpec {
  name: string;
  /** What each following word is: a fixed list of words or a kind looked up at completion time. */
  args?: Array<ArgumentKind | readonly string[]>;
  subcommands?: CommandSpec[];
}

export interface CompletionSources {
  commands: readonly CommandSpec[];
  models: readonly string[];
  aliases: readonly string[];
  /** `alias__tool` names. */
  tools: readonly string[];
  sessions?: readonly string[];
  /** The roots offered to MCP servers, for `:roots remove`. */
  roots?: readonly string[];
  /** `alias/name` of the servers' prompts, for `:prompt`. */
  prompts?: readonly string[];
}

/** The `:` commands as the conversation layer defines them (README.md, "Commands"); used until it exports its own table. */
export const DEFAULT_COMMANDS: readonly CommandSpec[] = [
  { name: 'help' },
  { name: 'clear' },
  { name: 'model', args: ['model'] },
  { name: 'sessions' },
  { name: 'permissions' },
  { name: 'quit' },
  {
    name: 'mcp',
    subcommands: [
      { name: 'list' },
      { name: 'tools', args: ['alias'] },
      { name: 'tool', args: ['tool'] },
      { name: 'connect' },
      { name: 'disconnect', args: ['alias'] },
      { name: 'reconnect', args: ['alias'] },
      { name: 'instructions', args: ['alias', ['accept']] },
    ],
  },
  { name: 'roots', subcommands: [{ name: 'list' }, { name: 'add' }, { name: 'remove', args: ['root'] }] },
];

/**
 * Completes words that start with a trigger character anywhere in a message (`@path` from the
 * files here; MCP resources can add their own `@alias:uri` source). `complete` gets the word
 * after the trigger and returns full replacements for it; a candidate ending in `/` is a folder
 * (Tab adds no space after it, so the next Tab goes on inside it).
 */
export interface CompletionSource {
  trigger: string;
  complete(word: string): readonly string[];
}

export interface Completion {
  /** Where the word being completed starts (index into the text). */
  from: number;
  /** The word as typed so far. */
  word: string;
  /** Matching words, sorted. */
  candidates: string[];
}

function candidatesFor(kind: ArgumentKind | readonly string[], sources: CompletionSources): readonly string[] {
  if (typeof kind !== 'string') return kind;
  switch (kind) {
    case 'model':
      return sources.models;
    case 'alias':
      return sources.aliases;
    case 'tool':
      return sources.tools;
    case 'session':
      return sources.sessions ?? [];
    case 'root':
      return sources.roots ?? [];
    case 'prompt':
      return sources.prompts ?? [];
  }
}

/** What Tab would complete at the end of `text`, or undefined when it is not a `:` or `/` command. */
export function findCompletion(text: string, sources: CompletionSources): Completion | undefined {
  // `/name` is the same command as `:name` (runtime/slash.ts), so it completes the same way.
  if (!(text.startsWith(':') || text.startsWith('/')) || text.includes('\n')) return undefined;
  const body = text.slice(1);
  const words = body.split(/ +/);
  const word = words[words.length - 1] ?? '';
  const from = text.length - word.length;
  const match = (options: readonly string[]) => [...new Set(options.filter((option) => option.startsWith(word)))].sort();

  if (words.length === 1) return { from, word, candidates: match(sources.commands.map((command) => command.name)) };

  let spec = sources.commands.find((command) => command.name === words[0]);
  let argIndex = 0;
  for (let index = 1; index < words.length - 1 && spec; index++) {
    if (spec.subcommands) {
      spec = spec.subcommands.find((command) => command.name === words[index]);
      argIndex = 0;
    } else {
      argIndex++;
    }
  }
  if (!spec) return undefined;
  if (spec.subcommands && argIndex === 0) return { from, word, candidates: match(spec.subcommands.map((command) => command.name)) };
  const kind = spec.args?.[argIndex];
  if (!kind) return undefined;
  return { from, word, candidates: match(candidatesFor(kind, sources)) };
}

export function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0]!;
  for (const word of words) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
