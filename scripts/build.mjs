// Bundles src/boot.ts (which paints the remembered first frame, then imports src/cli.tsx) into dist/ so the installed command loads a handful of files instead of
// resolving hundreds of modules at start-up. Heavy, rarely needed parts (the TypeScript config
// loader, syntax highlighting, OAuth, stdio transport) stay behind dynamic imports and land in
// separate chunks that are only read when used.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmod, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { firstFramePlugin } from './first-frame-plugin.mjs';
import { keepOutputAscii } from './ascii-output.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const finalDir = path.join(root, 'dist');
// Build next to dist/ and swap it in, so a test run that is using dist/ never sees it half-written.
const outdir = path.join(root, `.dist-build-${process.pid}`);
await rm(outdir, { recursive: true, force: true });

/**
 * The config schema's fingerprint: a config that passed the check is remembered under it
 * (src/services/config/checked-cache.ts), so a build with any change to the schema, its checks or
 * zod checks every config again.
 */
const schemaHash = createHash('sha256');
for (const file of ['src/services/config/schema.ts', 'src/services/config/checks.ts', 'src/services/config/parse.ts', 'node_modules/zod/package.json']) {
  schemaHash.update(await readFile(path.join(root, file)));
}
const configSchemaId = `${pkg.version}:${schemaHash.digest('hex').slice(0, 16)}`;

/**
 * The sources' fingerprint: a first frame remembered by one build is painted at start-up only by
 * the same build (src/boot/remembered-screen.ts).
 */
const sourceHash = createHash('sha256');
for (const file of (await readdir(path.join(root, 'src'), { recursive: true })).sort()) {
  const full = path.join(root, 'src', file);
  if ((await stat(full)).isFile()) sourceHash.update(file).update(await readFile(full));
}
sourceHash.update(await readFile(path.join(root, 'package-lock.json')));
const buildId = `${pkg.version}:${sourceHash.digest('hex').slice(0, 16)}`;

await build({
  absWorkingDir: root,
  plugins: [firstFramePlugin(root)],
  entryPoints: { cli: 'src/boot.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  define: {
    'process.env.NODE_ENV': '"production"',
    __AISH_CONFIG_SCHEMA_ID__: JSON.stringify(configSchemaId),
    __AISH_BUILD_ID__: JSON.stringify(buildId),
  },
  // tsx is only loaded for a .ts config file and must resolve its own loader files at run time;
  // react-devtools-core is an optional Ink import that is never installed.
  external: ['tsx', 'tsx/*', 'react-devtools-core'],
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __aishCreateRequire } from 'node:module';",
      'const require = __aishCreateRequire(import.meta.url);',
    ].join('\n'),
  },
});

await keepOutputAscii(outdir);
await chmod(path.join(outdir, 'cli.js'), 0o755);
const oldDir = path.join(root, `.dist-old-${process.pid}`);
await rename(finalDir, oldDir).catch(() => {});
await rename(outdir, finalDir);
await rm(oldDir, { recursive: true, force: true });
