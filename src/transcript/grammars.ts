import type { LanguageFn } from 'highlight.js';

/**
 * The grammars code blocks can be highlighted with (lowlight's `common` set), each loaded on its
 * own the first time a block in that language appears, so an answer with TypeScript compiles one
 * grammar instead of thirty-seven. `aliases` are the names each grammar declares for itself (a
 * unit test checks them against highlight.js); `uses` are grammars it embeds (HTML's scripts and
 * styles, JSX, a shell session's commands) and that are loaded with it.
 */
interface Grammar {
  aliases: readonly string[];
  load: () => Promise<{ default: LanguageFn }>;
  uses?: readonly string[];
}

export const GRAMMARS = {
  arduino: { aliases: ['ino'], load: () => import('highlight.js/lib/languages/arduino') },
  bash: { aliases: ['sh', 'zsh'], load: () => import('highlight.js/lib/languages/bash') },
  c: { aliases: ['h'], load: () => import('highlight.js/lib/languages/c') },
  cpp: { aliases: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'], load: () => import('highlight.js/lib/languages/cpp') },
  csharp: { aliases: ['cs', 'c#'], load: () => import('highlight.js/lib/languages/csharp') },
  css: { aliases: [], load: () => import('highlight.js/lib/languages/css') },
  diff: { aliases: ['patch'], load: () => import('highlight.js/lib/languages/diff') },
  go: { aliases: ['golang'], load: () => import('highlight.js/lib/languages/go') },
  graphql: { aliases: ['gql'], load: () => import('highlight.js/lib/languages/graphql') },
  ini: { aliases: ['toml'], load: () => import('highlight.js/lib/languages/ini') },
  java: { aliases: ['jsp'], load: () => import('highlight.js/lib/languages/java') },
  javascript: { aliases: ['js', 'jsx', 'mjs', 'cjs'], load: () => import('highlight.js/lib/languages/javascript'), uses: ['xml'] },
  json: { aliases: ['jsonc', 'json5'], load: () => import('highlight.js/lib/languages/json') },
  kotlin: { aliases: ['kt', 'kts'], load: () => import('highlight.js/lib/languages/kotlin') },
  less: { aliases: [], load: () => import('highlight.js/lib/languages/less') },
  lua: { aliases: ['pluto'], load: () => import('highlight.js/lib/languages/lua') },
  makefile: { aliases: ['mk', 'mak', 'make'], load: () => import('highlight.js/lib/languages/makefile') },
  markdown: { aliases: ['md', 'mkdown', 'mkd'], load: () => import('highlight.js/lib/languages/markdown') },
  objectivec: { aliases: ['mm', 'objc', 'obj-c', 'obj-c++', 'objective-c++'], load: () => import('highlight.js/lib/languages/objectivec') },
  perl: { aliases: ['pl', 'pm'], load: () => import('highlight.js/lib/languages/perl') },
  php: { aliases: [], load: () => import('highlight.js/lib/languages/php') },
  "php-template": { aliases: [], load: () => import('highlight.js/lib/languages/php-template'), uses: ['xml', 'php'] },
  plaintext: { aliases: ['text', 'txt'], load: () => import('highlight.js/lib/languages/plaintext') },
  python: { aliases: ['py', 'gyp', 'ipython'], load: () => import('highlight.js/lib/languages/python') },
  "python-repl": { aliases: ['pycon'], load: () => import('highlight.js/lib/languages/python-repl'), uses: ['python'] },
  r: { aliases: [], load: () => import('highlight.js/lib/languages/r') },
  ruby: { aliases: ['rb', 'gemspec', 'podspec', 'thor', 'irb'], load: () => import('highlight.js/lib/languages/ruby') },
  rust: { aliases: ['rs'], load: () => import('highlight.js/lib/languages/rust') },
  scss: { aliases: [], load: () => import('highlight.js/lib/languages/scss') },
  shell: { aliases: ['console', 'shellsession'], load: () => import('highlight.js/lib/languages/shell'), uses: ['bash'] },
  sql: { aliases: [], load: () => import('highlight.js/lib/languages/sql') },
  swift: { aliases: [], load: () => import('highlight.js/lib/languages/swift') },
  typescript: { aliases: ['ts', 'tsx', 'mts', 'cts'], load: () => import('highlight.js/lib/languages/typescript'), uses: ['xml'] },
  vbnet: { aliases: ['vb'], load: () => import('highlight.js/lib/languages/vbnet') },
  wasm: { aliases: [], load: () => import('highlight.js/lib/languages/wasm') },
  xml: { aliases: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'], load: () => import('highlight.js/lib/languages/xml'), uses: ['css', 'javascript'] },
  yaml: { aliases: ['yml'], load: () => import('highlight.js/lib/languages/yaml') },
} satisfies Record<string, Grammar>;

export type GrammarName = keyof typeof GRAMMARS;

const BY_NAME = new Map<string, GrammarName>();
for (const [name, grammar] of Object.entries(GRAMMARS) as Array<[GrammarName, Grammar]>) {
  BY_NAME.set(name, name);
  for (const alias of grammar.aliases) BY_NAME.set(alias, name);
}

/** The grammar for a fence's language name or alias (lower case), if there is one. */
export function grammarFor(language: string): GrammarName | undefined {
  return BY_NAME.get(language);
}

/** A grammar and the ones it embeds. */
export function grammarsFor(name: GrammarName): GrammarName[] {
  return [name, ...(((GRAMMARS[name] as Grammar).uses ?? []) as GrammarName[])];
}
