import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { configSchema } from '../../../src/services/config/schema';

// config.example.ts promises to show every key. This walks the schema, so a key added to the
// schema without a line in the example fails here.

type Walkable = z.core.$ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };

function keyPaths(schema: Walkable, prefix: string, out: string[]): string[] {
  const def = schema._zod.def;
  switch (def.type) {
    case 'object':
      for (const [key, inner] of Object.entries(def.shape as Record<string, Walkable>)) {
        const at = prefix ? `${prefix}.${key}` : key;
        out.push(at);
        keyPaths(inner, at, out);
      }
      break;
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
      keyPaths(def.innerType as Walkable, prefix, out);
      break;
    case 'record':
      keyPaths(def.valueType as Walkable, `${prefix}.<name>`, out);
      break;
    case 'union':
      for (const option of def.options as Walkable[]) keyPaths(option, prefix, out);
      break;
  }
  return out;
}

describe('config.example.ts', () => {
  const example = readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'config.example.ts'), 'utf8');
  const paths = [...new Set(keyPaths(configSchema as unknown as Walkable, '', []))];

  it('walks the whole schema (nested keys of records and unions included)', () => {
    expect(paths).toContain('models.<name>.streamUsage');
    expect(paths).toContain('mcp.servers.<name>.oauth.callbackPort');
    expect(paths).toContain('mcp.servers.<name>.cwd');
    expect(paths.length).toBeGreaterThan(50);
  });

  it.each(paths)('shows %s', (keyPath) => {
    const key = keyPath.split('.').at(-1)!;
    // A key is shown as `key:` (set or commented out) somewhere in the example.
    expect(example).toMatch(new RegExp(`(^|[\\s{,'"])${key}['"]?:`, 'm'));
  });
});
