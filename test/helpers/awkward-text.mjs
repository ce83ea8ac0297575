// A long tool result whose escaped form differs from its text everywhere: quotes, backslashes,
// tabs, control characters, accents, emoji (surrogate pairs) and a lone surrogate, with `secret`
// placed at uneven intervals so that some occurrences fall across any cut. Shared by the results
// server (test/helpers/results-mcp-server.mjs, tool `awkward`) and the tests that check what the
// app kept of it.
export function awkwardText(lines, secret) {
  const rows = [];
  for (let line = 0; line < lines; line++) {
    const mark = line % 89 === 0 && secret ? ` ${secret}` : line % 151 === 0 && secret ? secret : '';
    rows.push(`row ${line}\t"quoted" back\\slash \u0001 grüße 😀${line % 1000 === 0 ? '\ud800' : ''}${mark} ${'·'.repeat(line % 40)}`);
  }
  return `${rows.join('\n')}\nEND`;
}
