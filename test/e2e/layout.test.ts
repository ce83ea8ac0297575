import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { disposeAfterEach } from '../helpers/lifecycle';
import { keys, makeScratchHome, TerminalSession } from '../helpers/terminal';

const track = disposeAfterEach();

describe('full-screen layout (built binary in a pseudo-terminal)', () => {
  it('draws chat, sidebar, input and status bar at 120x40 on the alternate screen', async () => {
    const session = track(new TerminalSession({ cols: 120, rows: 40 }));
    const screen = await session.waitFor((text) => text.includes('MCP servers') && text.includes('Ctrl+D quit'));
    expect(await session.onAltScreen()).toBe(true);
    const lines = await session.lines();
    expect(lines).toHaveLength(40);
    // Sidebar on the right, status bar on the last row with the default model. The context meter
    // (`144/?`, `830/128k`) shows once measured, which may come before or after this frame.
    expect(lines.findIndex((line) => line.includes('MCP servers'))).toBeLessThan(3);
    expect(lines[39]).toMatch(/^local · idle · (?:[\d.]+k?\/(?:\?|[\d.]+k?) · )?mcp \d+\/\d+/);
    expect(screen).toContain('Ctrl+D quit');
    expect(lines.some((line) => line.includes('Ask anything'))).toBe(true);
  });

  it('fits 80x24 with the sidebar hidden, and brings it back with Ctrl+S', async () => {
    const session = track(new TerminalSession({ cols: 80, rows: 24 }));
    await session.waitFor('Ask anything');
    let lines = await session.lines();
    expect(lines.join('\n')).not.toContain('MCP servers');
    expect(lines[23]).toMatch(/^local · idle/);
    session.write(keys.ctrl('s'));
    await session.waitFor('MCP servers');
    lines = await session.lines();
    expect(lines.every((line) => line.length <= 80)).toBe(true);
  });

  it('reflows when the terminal is resized', async () => {
    const session = track(new TerminalSession({ cols: 120, rows: 40 }));
    await session.waitFor('MCP servers');
    session.resize(80, 24);
    await session.waitFor((screen) => !screen.includes('MCP servers') && screen.split('\n')[23]?.startsWith('local · idle') === true);
    session.resize(130, 30);
    // The whole frame, not its first rows: the resize's redraw may arrive in several reads.
    const screen = await session.waitFor((text) => text.includes('MCP servers') && /^local · idle/.test(text.split('\n')[29] ?? ''));
    expect(screen.split('\n')[29]).toMatch(/^local · idle/);
  });

  it('quits on Ctrl+D and leaves the terminal on the main screen with the cursor shown', async () => {
    const session = track(new TerminalSession({ cols: 100, rows: 30 }));
    await session.waitFor('Ask anything');
    session.write(keys.ctrl('d'));
    expect(await session.waitForExit()).toBe(0);
    expect(await session.onAltScreen()).toBe(false);
    const tail = session.raw.slice(session.raw.lastIndexOf('\x1b[?1049l') - 20);
    expect(tail).toContain('\x1b[?25h');
    // Bracketed paste was on while the app ran, and is off again.
    expect(session.raw.indexOf('\x1b[?2004h')).toBeGreaterThanOrEqual(0);
    expect(session.raw.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(session.raw.indexOf('\x1b[?2004h'));
  });

  it('Ctrl+C clears the input first, then quits on a second press within a second', async () => {
    const session = track(new TerminalSession({ cols: 100, rows: 30 }));
    await session.waitFor('Ask anything');
    session.write('draft text');
    await session.waitFor('draft text');
    session.write(keys.ctrl('c'));
    await session.waitFor((screen) => !screen.includes('draft text'));
    session.write(keys.ctrl('c'));
    await session.waitFor('press Ctrl+C again to quit');
    session.write(keys.ctrl('c'));
    expect(await session.waitForExit()).toBe(0);
    expect(await session.onAltScreen()).toBe(false);
  });

  it('restores the terminal on SIGTERM and on SIGHUP', async () => {
    for (const signal of ['SIGTERM', 'SIGHUP']) {
      const session = track(new TerminalSession({ cols: 100, rows: 30 }));
      await session.waitFor('Ask anything');
      session.kill(signal);
      await session.waitForExit();
      expect(await session.onAltScreen(), signal).toBe(false);
      expect(session.raw.endsWith('\x1b[?1049l'), signal).toBe(true);
      await session.dispose();
    }
  });

  it('prints a one-line message naming file and key for a bad config, and exits 2', async () => {
    const home = makeScratchHome();
    const file = path.join(home, 'bad.json');
    writeFileSync(file, JSON.stringify({ mcp: { servers: { boltzmann: { url: 'boltzmann:8080' } } } }));
    const session = track(new TerminalSession({ cols: 120, rows: 20, args: ['--config', file], home }));
    expect(await session.waitForExit()).toBe(2);
    const screen = await session.screen();
    expect(screen).toContain('bad.json: mcp.servers.boltzmann.url: expected a URL, got "boltzmann:8080"');
    expect(screen).not.toMatch(/at .*\.js:\d+/);
    expect(await session.onAltScreen()).toBe(false);
  });
});
