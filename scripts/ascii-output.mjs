// esbuild escapes non-ASCII characters in strings, templates and regular expressions, but keeps
// comments it preserves (in class bodies and expressions) byte for byte. One such character, say
// an arrow in a dependency's doc comment, makes V8 hold the whole chunk's source as a two-byte
// string: 1.5 MB more of resident heap for the MCP client's chunk alone. Escaping what is left
// keeps every chunk ASCII; in a comment the escape means nothing, anywhere else it means the same.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** `text` with every character outside ASCII written as `\uXXXX` (UTF-16 code units). */
export function escapeNonAscii(text) {
  return text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Rewrites the .js files under `dir` that hold non-ASCII characters; returns how many it rewrote. */
export async function keepOutputAscii(dir) {
  let rewritten = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const text = await readFile(file, 'utf8');
    if (!/[^\x00-\x7f]/.test(text)) continue;
    await writeFile(file, escapeNonAscii(text));
    rewritten += 1;
  }
  return rewritten;
}
