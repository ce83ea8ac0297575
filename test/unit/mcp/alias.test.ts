import { describe, expect, it } from 'vitest';
import { aliasProblem } from '../../../src/services/config/schema';
import { aliasFromUrl } from '../../../src/services/mcp/index';

describe('aliasFromUrl', () => {
  it.each([
    ['http://boltzmann.fritz.box:8080/mcp', 'boltzmann'],
    ['https://mcp.example.com/mcp', 'example'],
    ['https://api.github.com/mcp', 'github'],
    ['http://127.0.0.1:8931/mcp', '127-0-0-1-8931'],
    ['http://localhost:3000/mcp', 'localhost-3000'],
    ['http://[::1]:3000/mcp', '1-3000'],
    ['https://mcp/', 'mcp'],
  ])('%s -> %s', (url, alias) => {
    expect(aliasFromUrl(new URL(url))).toBe(alias);
    expect(aliasProblem(alias)).toBeUndefined();
  });
});
