import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../../src/services/conversation/types';
import { meterColorFor, meterText, meterTone } from '../../src/ui/panels/StatusBar';
import { createTheme } from '../../src/terminal/theme';
import { useRenderedApp } from './render';

const app = useRenderedApp();

const snapshot = (used: number): ContextSnapshot => ({
  model: 'local',
  used,
  reported: true,
  window: { tokens: 4096, source: 'llama.cpp /props (n_ctx of a slot)' },
  parts: { system: 100, tools: 500, toolsByServer: { builtin: 500 }, messages: used - 600, reserve: 1024 },
});

const theme = createTheme({});

describe('the context meter in the status bar', () => {
  it('shows usage against the window, yellow from 75% and red from 90%', async () => {
    const h = app.render({ columns: 140 });
    h.store.getState().setModelName('local');
    h.store.getState().setContextWindow('local', { tokens: 4096, source: 'test' });
    h.store.getState().setContext(snapshot(2000));
    await h.settle();
    expect(h.screen()).toMatch(/local · idle · 2\.0k\/4k · mcp 0\/0/);
    h.store.getState().setContext(snapshot(3100));
    await h.settle();
    expect(h.screen()).toContain('3.1k/4k');
    // The colour roles (component tests draw without colour; tmux shows them): muted, warn, error.
    expect([meterTone(2000, 4096), meterTone(3100, 4096), meterTone(3700, 4096)].map((tone) => meterColorFor(tone, theme))).toEqual([theme.muted, theme.warn, theme.error]);
    expect(theme.warn).not.toBe(theme.muted);
  });

  it('says "?" while the window is unknown, and shows nothing for another model', async () => {
    const h = app.render({ columns: 140 });
    h.store.getState().setModelName('local');
    h.store.getState().setContext({ ...snapshot(900), window: { source: 'unknown: test' } });
    await h.settle();
    expect(h.screen()).toMatch(/local · idle · 900\/\? · mcp/);
    h.store.getState().setModelName('other');
    await h.settle();
    expect(h.screen()).toMatch(/other · idle · mcp/);
  });

  it('formats and tones', () => {
    expect(meterText(12_300, 32_768)).toBe('12.3k/32k');
    expect(meterText(130_000, 128_000)).toBe('130k/128k');
    expect(meterText(undefined, 4096)).toBe('');
    expect([meterTone(3071, 4096), meterTone(3072, 4096), meterTone(3687, 4096)]).toEqual(['normal', 'warn', 'alert']);
  });
});
