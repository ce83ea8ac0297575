// The windows asked of servers, remembered between runs in `<stateDir>/context-windows.json`, per
// server and model, with the time each was asked. A remembered window is used at once (the meter
// and the budget know it before the server answers again, and `-p` does not ask every run); one
// older than `context.windowMaxAgeHours` is asked again, and so is one the server contradicts
// (a length error stating another window, or a prompt counted larger than it).
//
// The file holds no secret: the key is the server's origin and path without credentials, query or
// fragment. A missing, unreadable or malformed file is an empty one; a failed write is said once.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ContextWindow } from './window';

export interface RememberedWindow {
  tokens: number;
  source: string;
  maximum?: number;
  server?: ContextWindow['server'];
  /** When the server was asked (ms since the epoch). */
  askedAt: number;
}

interface WindowFile {
  version: 1;
  windows: Record<string, RememberedWindow>;
}

export interface WindowStore {
  read(key: string): RememberedWindow | undefined;
  write(key: string, window: RememberedWindow): void;
  /** Where it is kept, for `:model` and `:context`. */
  readonly file: string;
}

/** `http://user:pw@host:8080/v1?x#y` + `m` → `http://host:8080/v1 m`: what a window is remembered by. */
export function windowKey(baseUrl: string, model: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')} ${model}`;
  } catch {
    return `${baseUrl} ${model}`;
  }
}

const positive = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

function validEntry(value: unknown): RememberedWindow | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (!positive(entry.tokens) || typeof entry.source !== 'string' || !positive(entry.askedAt)) return undefined;
  return {
    tokens: entry.tokens,
    source: entry.source.slice(0, 200),
    askedAt: entry.askedAt,
    ...(positive(entry.maximum) ? { maximum: entry.maximum } : {}),
    ...(entry.server === 'llama.cpp' || entry.server === 'ollama' || entry.server === 'lmstudio' || entry.server === 'vllm' ? { server: entry.server } : {}),
  };
}

export function createFileWindowStore(file: string, onError?: (message: string) => void): WindowStore {
  let data: WindowFile | undefined;
  let reported = false;
  const load = (): WindowFile => {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowFile>;
      if (parsed?.version === 1 && parsed.windows && typeof parsed.windows === 'object') return { version: 1, windows: parsed.windows };
    } catch {
      // Missing or unreadable: nothing remembered.
    }
    return { version: 1, windows: {} };
  };
  return {
    file,
    read(key) {
      data ??= load();
      return validEntry(data.windows[key]);
    },
    write(key, window) {
      // Another aish-tui may have written meanwhile: its other entries are kept.
      data = load();
      data.windows[key] = window;
      try {
        mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, `${JSON.stringify(data, null, 1)}\n`, { mode: 0o600 });
        chmodSync(temporary, 0o600);
        renameSync(temporary, file);
      } catch (error) {
        if (!reported) onError?.(`cannot remember context windows in ${file}: ${(error as Error).message}`);
        reported = true;
      }
    },
  };
}

/** A store that keeps nothing (tests, and runs without a state directory). */
export function createMemoryWindowStore(): WindowStore {
  const windows = new Map<string, RememberedWindow>();
  return { file: '(memory)', read: (key) => windows.get(key), write: (key, window) => void windows.set(key, window) };
}
