import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES, MAX_REMEMBERED, readRememberedFrame, rememberedScreenFile, replayable, startKey, writeRememberedFrame, type StartFacts } from '../../../src/boot/remembered-frame-file';

function home(): { dir: string; facts: StartFacts } {
  const dir = mkdtempSync(path.join(tmpdir(), 'aish-remembered-'));
  mkdirSync(path.join(dir, '.config', 'aish'), { recursive: true });
  writeFileSync(path.join(dir, '.config', 'aish', 'config.json'), '{}');
  const env = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config'), XDG_STATE_HOME: path.join(dir, '.state'), TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  return { dir, facts: { argv: [], env, cwd: dir, columns: 120, rows: 40, terminal: true } };
}

describe('the key a first frame is remembered under', () => {
  it('exists only for a plain start on a terminal', () => {
    const { facts } = home();
    expect(startKey(facts)).toBeDefined();
    expect(startKey({ ...facts, argv: ['--resume'] })).toBeUndefined();
    expect(startKey({ ...facts, argv: ['-p', 'hi'] })).toBeUndefined();
    expect(startKey({ ...facts, terminal: false })).toBeUndefined();
    expect(startKey({ ...facts, columns: undefined })).toBeUndefined();
    expect(startKey({ ...facts, env: { ...facts.env, TERM: 'dumb' } })).toBeUndefined();
  });

  it('changes with what the first frame shows: size, folder, colours, the config files', () => {
    const { dir, facts } = home();
    const key = startKey(facts)!;
    expect(startKey({ ...facts })).toBe(key);
    expect(startKey({ ...facts, columns: 121 })).not.toBe(key);
    expect(startKey({ ...facts, rows: 39 })).not.toBe(key);
    expect(startKey({ ...facts, cwd: tmpdir() })).not.toBe(key);
    expect(startKey({ ...facts, env: { ...facts.env, NO_COLOR: '1' } })).not.toBe(key);
    const config = path.join(dir, '.config', 'aish', 'config.json');
    writeFileSync(config, '{"ui":{"sidebar":false}}');
    expect(startKey(facts)).not.toBe(key);
    const edited = startKey(facts)!;
    utimesSync(config, new Date(), new Date(Date.now() + 5000));
    const touched = startKey(facts)!;
    expect(touched).not.toBe(edited);
    // A project config appears in the folder.
    mkdirSync(path.join(dir, '.aish'));
    writeFileSync(path.join(dir, '.aish', 'config.json'), '{}');
    expect(startKey(facts)).not.toBe(touched);
  });

  it('holds no value of a variable it was not told to read (they hold API keys)', () => {
    const { facts } = home();
    const key = startKey({ ...facts, env: { ...facts.env, AISH_TEST_KEY: 'sk-live-abc123', OPENAI_API_KEY: 'sk-xyz789' } })!;
    expect(key).toBe(startKey(facts));
    expect(key).not.toContain('sk-');
  });
});

describe('a remembered frame', () => {
  const frame = '\x1b[?2026h\x1b[?25l\x1b[0m\x1b[2J\x1b[1H\x1b[36mbench\x1b[39m · idle\x1b[40;3H› Ask anything\x1b[?2026l';

  it('is replayed only if it holds nothing but text and CSI sequences', () => {
    expect(replayable(frame)).toBe(true);
    expect(replayable(`${frame}\x1b]52;c;ZWNobyBoaQ==\x07`)).toBe(false); // clipboard write
    expect(replayable(`${frame}\x1b]0;title\x1b\\`)).toBe(false); // window title
    expect(replayable(`${frame}\x1bP$q"p\x1b\\`)).toBe(false); // DCS request
    expect(replayable(`${frame}\x1b_Gi=1\x1b\\`)).toBe(false); // APC (kitty graphics)
    expect(replayable(`${frame}\x9b2J`)).toBe(false); // C1 CSI
    expect(replayable(`${frame}\x07`)).toBe(false); // bell
    expect(replayable(`${frame}\x1b[?1000h`)).toBe(false); // mouse reports would arrive as keys
    expect(replayable(`${frame}\x1b[6n`)).toBe(false); // a cursor report would arrive as keys
    expect(replayable(`${frame}\x1b[?1049l`)).toBe(false); // leaves the screen
    expect(replayable(`${frame}\x1b[38;2;10;20;30m\x1b[12;40H\x1b[5X\x1b[3C\x1b[?25h\n`)).toBe(true); // true colour, moves, erases
    expect(replayable(`${frame}\x1b`)).toBe(false); // cut sequence
    expect(replayable('')).toBe(false);
    expect(replayable('x'.repeat(MAX_FRAME_BYTES + 1))).toBe(false);
  });

  it('is written 0600 in a 0700 folder and read back only under its own key', () => {
    const { dir, facts } = home();
    const key = startKey(facts)!;
    const file = rememberedScreenFile(facts.env, key);
    expect(file.startsWith(path.join(dir, '.state', 'aish', 'screens'))).toBe(true);
    writeRememberedFrame(file, key, frame);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readRememberedFrame(file, key)).toBe(frame);
    expect(readRememberedFrame(file, `${key}x`)).toBeUndefined();
    expect(readRememberedFrame(path.join(dir, 'missing.screen'), key)).toBeUndefined();
  });

  it('that was tampered with is not replayed, and an unreplayable one is never written', () => {
    const { facts } = home();
    const key = startKey(facts)!;
    const file = rememberedScreenFile(facts.env, key);
    writeRememberedFrame(file, key, frame);
    writeFileSync(file, `${key}\n\n${frame}\x1b]52;c;cm0gLXJmIH4=\x07`);
    expect(readRememberedFrame(file, key)).toBeUndefined();
    writeRememberedFrame(file, key, `${frame}\x1b]8;;https://example.com\x1b\\`);
    expect(readFileSync(file, 'utf8')).toContain('\x1b]52'); // left as it was: not overwritten with the hostile one
  });

  it('are kept up to a number, the ones not used for longest dropped first', () => {
    const { dir, facts } = home();
    const files: string[] = [];
    for (let index = 0; index < MAX_REMEMBERED + 3; index++) {
      const key = startKey({ ...facts, columns: 80 + index })!;
      const file = rememberedScreenFile(facts.env, key);
      writeRememberedFrame(file, key, frame);
      // Written a second apart, oldest first.
      const at = new Date(Date.now() - (MAX_REMEMBERED + 3 - index) * 1000);
      utimesSync(file, at, at);
      files.push(file);
    }
    const key = startKey({ ...facts, columns: 200 })!;
    writeRememberedFrame(rememberedScreenFile(facts.env, key), key, frame);
    const left = readdirSync(path.join(dir, '.state', 'aish', 'screens'));
    expect(left).toHaveLength(MAX_REMEMBERED);
    for (const gone of files.slice(0, 4)) expect(left).not.toContain(path.basename(gone));
    expect(left).toContain(path.basename(files[4]!));
    expect(left).toContain(path.basename(rememberedScreenFile(facts.env, key)));
  });

  it('is read only from a plain file of a frame\'s size: not a folder, a device or a huge file', () => {
    const { dir, facts } = home();
    const key = startKey(facts)!;
    const file = rememberedScreenFile(facts.env, key);
    mkdirSync(path.dirname(file), { recursive: true });
    symlinkSync('/dev/zero', file);
    expect(readRememberedFrame(file, key)).toBeUndefined();
    rmSync(file);
    mkdirSync(file);
    expect(readRememberedFrame(file, key)).toBeUndefined();
    rmSync(file, { recursive: true });
    writeFileSync(file, `${key}\n\n${'x'.repeat(MAX_FRAME_BYTES * 5)}`);
    expect(readRememberedFrame(file, key)).toBeUndefined();
    // Writing replaces a link with a file instead of writing where it points.
    rmSync(file);
    const target = path.join(dir, 'elsewhere.txt');
    writeFileSync(target, 'untouched');
    symlinkSync(target, `${file}.${process.pid}.tmp`);
    writeRememberedFrame(file, key, frame);
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    expect(readRememberedFrame(file, key)).toBe(frame);
  });
});
