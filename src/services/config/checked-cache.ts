import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * Configs already checked against the schema, kept by a hash of exactly what was checked, so an
 * unchanged config does not load the schema library before the first frame (about 40 ms to load
 * and 25 ms to check, measured in BENCHMARKS.md). The key covers the whole input and the schema
 * (the build's fingerprint of its source), so any change to either checks again. Only plain JSON
 * data is kept: a config made by code with functions or class instances in it is always checked.
 * The file holds no value of the user's: checking only adds defaults, so what is kept is where and
 * which defaults were added, and a hit puts them into the config just read (no key or token is
 * written anywhere new).
 */

const FILE_NAME = 'config-checked.json';
/** The user's config, a project's, and the two merged: a few entries cover switching between projects. */
const MAX_ENTRIES = 6;

/** A default the check added: where (keys and array indices) and its value. */
type Added = [Array<string | number>, unknown];

interface Entry {
  key: string;
  added: Added[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The defaults that make `parsed` from `raw`, or undefined when the check changed more than that. */
export function addedDefaults(raw: unknown, parsed: unknown): Added[] | undefined {
  const added: Added[] = [];
  const walk = (input: unknown, output: unknown, at: Array<string | number>): boolean => {
    if (Array.isArray(output)) {
      return Array.isArray(input) && input.length === output.length && output.every((item, index) => walk(input[index], item, [...at, index]));
    }
    if (isObject(output)) {
      if (!isObject(input)) return false;
      if (Object.keys(input).some((key) => !Object.hasOwn(output, key))) return false;
      for (const [key, value] of Object.entries(output)) {
        if (!Object.hasOwn(input, key)) added.push([[...at, key], value]);
        else if (!walk(input[key], value, [...at, key])) return false;
      }
      return true;
    }
    return Object.is(input, output);
  };
  if (!walk(raw, parsed, [])) return undefined;
  try {
    return isDeepStrictEqual(withDefaults(raw, added), parsed) ? added : undefined;
  } catch {
    return undefined;
  }
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `raw` (copied) with the defaults put in; throws when one would replace a value of the config's own. */
export function withDefaults(raw: unknown, added: ReadonlyArray<Added>): unknown {
  const result = structuredClone(raw);
  for (const [at, value] of added) {
    if (at.some((step) => typeof step === 'string' && UNSAFE_KEYS.has(step))) throw new Error('unsafe key');
    let node: unknown = result;
    for (const step of at.slice(0, -1)) {
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, step)) throw new Error('no such place');
      node = (node as Record<string | number, unknown>)[step];
    }
    const last = at.at(-1)!;
    if (!isObject(node) || Object.hasOwn(node, last)) throw new Error('not a default');
    node[last] = structuredClone(value);
  }
  return result;
}

/** True for data JSON keeps as it is: plain objects, arrays, strings, finite numbers, booleans, null. */
export function isPlainJson(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isPlainJson(item, depth + 1));
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value as Record<string, unknown>).every((item) => item !== undefined && isPlainJson(item, depth + 1));
}

function isAdded(value: unknown): value is Added {
  return Array.isArray(value) && value.length === 2 && Array.isArray(value[0]) && value[0].length > 0 && value[0].every((step) => typeof step === 'string' || typeof step === 'number');
}

export class CheckedConfigs {
  private readonly file: string;

  constructor(
    stateDir: string,
    private readonly schemaId: string,
  ) {
    this.file = path.join(stateDir, FILE_NAME);
  }

  private key(raw: unknown): string | undefined {
    if (!isPlainJson(raw)) return undefined;
    return createHash('sha256').update(this.schemaId).update('\0').update(JSON.stringify(raw)).digest('hex');
  }

  /** Read once per load (a project config asks twice: alone and merged). */
  private read: Entry[] | undefined;

  private entries(): Entry[] {
    return (this.read ??= this.readEntries());
  }

  private readEntries(): Entry[] {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { entries?: unknown };
      if (!Array.isArray(data.entries)) return [];
      return data.entries.filter((entry): entry is Entry => typeof entry?.key === 'string' && Array.isArray(entry.added) && entry.added.every(isAdded));
    } catch {
      // Missing or unreadable: the config is checked as if it were new.
      return [];
    }
  }

  /** What checking `raw` gave before, or undefined when it has to be checked. */
  get<T>(raw: unknown): T | undefined {
    const key = this.key(raw);
    if (key === undefined) return undefined;
    const entry = this.entries().find((candidate) => candidate.key === key);
    if (!entry) return undefined;
    try {
      return withDefaults(raw, entry.added) as T;
    } catch {
      // A path that does not fit this config (the file was edited by hand): check it.
      return undefined;
    }
  }

  /** Remembers a check that passed. Failing to write only means checking again next time. */
  set(raw: unknown, parsed: unknown): void {
    const key = this.key(raw);
    if (key === undefined || !isPlainJson(parsed)) return;
    const added = addedDefaults(raw, parsed);
    if (added === undefined) return;
    const entries = [{ key, added }, ...this.entries().filter((entry) => entry.key !== key)].slice(0, MAX_ENTRIES);
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      // Written whole under another name and renamed over: a reader never sees half a file.
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ entries }), { mode: 0o600 });
      renameSync(temporary, this.file);
      this.read = entries;
    } catch {
      // A read-only state directory: nothing is lost but the time saved.
    }
  }
}
