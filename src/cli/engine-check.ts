// Ink lays out the screen with Yoga, compiled to WebAssembly, and node's `fetch` parses HTTP with
// llhttp, WebAssembly too. A node started with `--jitless` (often from NODE_OPTIONS, set for some
// other program) has no `WebAssembly` global, and both fail deep inside a library with a bare
// ReferenceError. Said once, up front, with what to change.
import { ConfigError } from '../services/config/errors';

export function requireWebAssembly(scope: { WebAssembly?: unknown } = globalThis): void {
  if (typeof scope.WebAssembly === 'object' && scope.WebAssembly !== null) return;
  throw new ConfigError([
    'this node runs without WebAssembly (started with --jitless, perhaps from NODE_OPTIONS), which the screen layout and the HTTP client need',
    'Run aish-tui without --jitless: check NODE_OPTIONS and the node flags it is started with.',
  ]);
}
