import { config } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';
import { createMcpManager } from '../../../src/services/mcp/client';

describe('MCP message validation', () => {
  it('parses without compiling a parser per schema (the MCP side switches zod to jitless)', () => {
    expect(createMcpManager).toBeTypeOf('function');
    expect(config().jitless).toBe(true);
  });
});
