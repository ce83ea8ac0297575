import { describe, expect, it } from 'vitest';
import { forDisplay } from '../../src/runtime/turns';
import { configSchema } from '../../src/services/config/schema';
import { isSecretSetting } from '../../src/services/config/secrets';

// Every bound (docs/ARCHITECTURE.md, Security invariants 7) is a config key with a default, and the transcript
// keeps only limits.displayResultChars of a tool result.

describe('bounds are configurable, with defaults', () => {
  it('the defaults cover timeouts, sizes, counts, depth and render rate', () => {
    const config = configSchema.parse({});
    expect(config.mcp).toMatchObject({ toolTimeoutMs: 120_000, connectTimeoutMs: 30_000, maxToolCallsPerAnswer: 32, maxToolDepth: 8 });
    expect(config.context.maxToolResultChars).toBe(100_000);
    expect(config.limits).toEqual({
      displayResultChars: 20_000,
      stdioMaxLineBytes: 8 * 1024 * 1024,
      httpMaxMessageBytes: 64 * 1024 * 1024,
      inputSchemaBytes: 64 * 1024,
      inputSchemaDepth: 32,
      maxResultBytes: 256 * 1024,
      toolDefinitionBytes: 256 * 1024,
      toolDefinitionDepth: 64,
      toolListBytes: 8 * 1024 * 1024,
    });
    expect(config.ui.maxFps).toBe(30);
    expect(config.broker).toMatchObject({ firstByteTimeoutMs: 300_000, idleTimeoutMs: 120_000 });
  });

  it('rejects a bound that is not a positive number, naming the key', () => {
    const result = configSchema.safeParse({ limits: { httpMaxMessageBytes: 0 } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['limits', 'httpMaxMessageBytes']);
  });
});

describe('what the transcript keeps of a tool result', () => {
  it('keeps limits.displayResultChars characters and says how much was left out', () => {
    const event = { type: 'tool-result', id: 'c', name: 'a__b', content: 'x'.repeat(50_000), isError: false, outcome: 'ok' } as const;
    const shown = forDisplay(event, 20_000);
    expect(shown.type === 'tool-result' && shown.content.length).toBeLessThan(20_200);
    expect(shown.type === 'tool-result' && shown.content).toMatch(/… 30000 more characters not shown \(limits\.displayResultChars; the session log has all of it\)$/);
    expect(forDisplay({ ...event, content: 'short' }, 20_000)).toEqual({ ...event, content: 'short' });
    // Other events pass untouched.
    const text = { type: 'text-delta', text: 'x'.repeat(50_000) } as const;
    expect(forDisplay(text, 10)).toBe(text);
  });
});

describe('which configured values are secrets', () => {
  it('named credentials and credential-looking values, never ordinary settings', () => {
    expect(isSecretSetting('OPENAI_API_KEY', 'sk-abcdef')).toBe(true);
    expect(isSecretSetting('Authorization', 'Bearer abcdef123')).toBe(true);
    expect(isSecretSetting('CONFIGURED', 'sk-configured-secret')).toBe(true);
    expect(isSecretSetting('LOG_LEVEL', 'warn')).toBe(false);
    expect(isSecretSetting('ROOT', '/home/someone/projects/data-2024')).toBe(false);
    expect(isSecretSetting('BASE', 'https://example.com/api')).toBe(false);
    expect(isSecretSetting('X-Title', 'aish-tui')).toBe(false);
    expect(isSecretSetting('MODE', 'production')).toBe(false);
  });
});
