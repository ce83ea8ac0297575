import type { Plugin } from 'esbuild';
/** See first-frame-plugin.mjs: the build's changes to what the first frame runs, for the repository at `root`. */
export function firstFramePlugin(root: string): Plugin;
