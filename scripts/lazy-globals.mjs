// Rewrites module-level values that cost start-up time into stand-ins made on first use (see
// src/terminal/lazy-globals.ts for why and what they cost). A top-level
//   const name = /…\p{…}…/flags;      or      const name = new Intl.Segmenter(…);
// on its own line becomes `const name = lazyValue(() => …)`, or for a grapheme segmenter
// `lazyGraphemeSegmenter(() => …)`, which also skips the segmenter for one-column text.

/** One top-level declaration of a Unicode-property regex literal or a segmenter, on its own line. */
const DECLARATION = /^(const|let|var) ([A-Za-z_$][\w$]*) = (\/(?:[^/\\\n]|\\.)*\\p\{(?:[^/\\\n]|\\.)*\/[dgimsuvy]*|new Intl\.Segmenter\([^;\n]*\));[ \t]*$/gm;

/** The rewritten source, or undefined when the module has none of these declarations (or is not ESM). */
export function lazifyModuleGlobals(source, helperPath) {
  if (!source.includes('Intl.Segmenter') && !source.includes('\\p{')) return undefined;
  // The helpers are brought in with `import`, which only an ES module may use.
  if (!/^\s*(import|export)\s/m.test(source)) return undefined;
  let changed = 0;
  const rewritten = source.replace(DECLARATION, (_, kind, name, expression) => {
    changed += 1;
    const grapheme = expression.startsWith('new Intl.Segmenter(') && !/granularity\s*:\s*["'](word|sentence)["']/.test(expression);
    return `${kind} ${name} = ${grapheme ? '__aishLazyGraphemeSegmenter' : '__aishLazyValue'}(() => ${expression});`;
  });
  if (changed === 0) return undefined;
  const helpers = `import { lazyValue as __aishLazyValue, lazyGraphemeSegmenter as __aishLazyGraphemeSegmenter } from ${JSON.stringify(helperPath)};`;
  return `${helpers}\n${rewritten}`;
}
