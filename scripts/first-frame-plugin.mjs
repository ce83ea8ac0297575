// The build's changes to what the first frame runs; bench/scenarios/startup.ts bundles the minimal
// Ink app with the same plugin, to measure what Ink itself costs at best.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lazifyModuleGlobals } from './lazy-globals.mjs';

/**
 * Three changes to what the first frame runs, all measured in BENCHMARKS.md:
 * - yoga-layout (Ink's layout) loads its inlined WebAssembly through `fetch` when there is one,
 *   and Node's first `fetch` loads its whole HTTP client (about 50 ms and 10 MB before the first
 *   frame); the same bytes are decoded directly instead, as yoga does where there is no fetch.
 * - every copy of string-width gets the fast path of src/terminal/narrow-width.ts in front of it;
 * - Unicode-property regexes and segmenters made when a package is imported are made when first
 *   used instead, and one-column text is split into graphemes without ICU (scripts/lazy-globals.mjs).
 */
export function firstFramePlugin(root) {
  return {
    name: 'first-frame',
    setup(builder) {
      builder.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const fetchTest = 'w||"function"!=typeof fetch?';
        if (!source.includes(fetchTest)) throw new Error(`build: ${args.path} changed; update scripts/first-frame-plugin.mjs`);
        return { contents: source.replace(fetchTest, 'true?'), loader: 'js' };
      });
      builder.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.pluginData === 'narrow-width') return undefined;
        const real = await builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'narrow-width' });
        if (real.errors.length > 0) return { errors: real.errors };
        // Relative, so the bundle's comments do not name the machine's folders.
        return { path: path.relative(root, real.path), namespace: 'narrow-width' };
      });
      const lazyHelpers = path.join(root, 'src', 'terminal', 'lazy-globals.ts');
      builder.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/, namespace: 'file' }, async (args) => {
        const contents = lazifyModuleGlobals(await readFile(args.path, 'utf8'), lazyHelpers);
        return contents === undefined ? undefined : { contents, loader: 'js', resolveDir: path.dirname(args.path) };
      });
      builder.onLoad({ filter: /.*/, namespace: 'narrow-width' }, (args) => ({
        contents: [
          `import stringWidth from ${JSON.stringify(path.join(root, args.path))};`,
          `import { withNarrowFastPath } from ${JSON.stringify(path.join(root, 'src', 'terminal', 'narrow-width.ts'))};`,
          'export default withNarrowFastPath(stringWidth);',
        ].join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}
