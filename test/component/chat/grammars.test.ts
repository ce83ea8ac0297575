import hljs from 'highlight.js/lib/core';
import { common } from 'lowlight';
import { describe, expect, it } from 'vitest';
import { GRAMMARS, grammarFor, grammarsFor, type GrammarName } from '../../../src/transcript/grammars';

// The alias table is written out so a code block can pick its grammar before any is loaded; it
// must say what the grammars themselves say.
describe('grammar table', () => {
  it('has every grammar of lowlight\'s common set, with the aliases each grammar declares', async () => {
    expect(Object.keys(GRAMMARS).sort()).toEqual(Object.keys(common).sort());
    for (const name of Object.keys(GRAMMARS) as GrammarName[]) {
      const { default: language } = await GRAMMARS[name].load();
      expect(language, name).toBe(common[name]);
      expect([...GRAMMARS[name].aliases].sort(), name).toEqual([...(language(hljs).aliases ?? [])].sort());
    }
  });

  it('finds grammars by name and alias, and loads embedded grammars with their host', () => {
    expect(grammarFor('ts')).toBe('typescript');
    expect(grammarFor('html')).toBe('xml');
    expect(grammarFor('php-template')).toBe('php-template');
    expect(grammarFor('brainfuck')).toBeUndefined();
    expect(grammarsFor('shell')).toEqual(['shell', 'bash']);
    for (const name of Object.keys(GRAMMARS) as GrammarName[]) for (const used of grammarsFor(name)) expect(GRAMMARS[used], `${name} uses ${used}`).toBeDefined();
  });
});
