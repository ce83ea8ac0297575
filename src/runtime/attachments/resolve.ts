// Files named in a message (README.md, "Files and images"): `@path` attaches a file under the
// working directory; an image path pasted into the input (a dragged screenshot) attaches the
// image. What is refused, and why (docs/ARCHITECTURE.md, Security invariants):
//
// - `@` paths outside the working directory, after following symlinks (`@../../etc/passwd`,
//   `@/etc/passwd`, `@~/…`, a link out of the tree): the model gets only what is under the
//   directory you started in;
// - credential and key paths anywhere (the argument guard's list, `mcp.argumentGuard`: SSH and GPG
//   keys, cloud and registry credentials, `.env`, `.netrc`, `*.pem`/`*.key`, aish-tui's own config
//   and state), even under the working directory and even as a pasted path;
// - binary files that are not images, text over TEXT_LIMIT, images over IMAGE_LIMIT;
// - images for a model not marked `vision: true` in the config.
//
// A `@word` that names no file is left as text (people write `@someone`). A refusal keeps the
// draft in the input with a hint saying what and why; nothing is sent.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Attachment } from '../../services/conversation/types';

export const TEXT_LIMIT = 256 * 1024;
export const IMAGE_LIMIT = 5 * 1024 * 1024;

export interface AttachOptions {
  cwd: string;
  home?: string;
  /**
   * Why a path is never attached (a credential or key path, aish-tui's own files), or undefined:
   * the argument guard's path list (runtime/tool-policy.ts argumentGuardFor), so
   * `mcp.argumentGuard` covers attachments the way it covers tool arguments.
   */
  guard: (file: string) => { reason: string } | undefined;
  /** The model takes images (`vision: true`); `modelName` names it in the refusal. */
  vision: boolean;
  modelName: string;
}

export interface Resolved {
  attachments: Attachment[];
  /** Why the message cannot go as it is (one line each). */
  problems: string[];
}

const IMAGE_TYPES: ReadonlyArray<{ mime: string; test: (head: Buffer) => boolean }> = [
  { mime: 'image/png', test: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/jpeg', test: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  { mime: 'image/gif', test: (head) => head.subarray(0, 4).toString('latin1') === 'GIF8' },
  { mime: 'image/webp', test: (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP' },
];

export function imageMime(head: Buffer): string | undefined {
  return IMAGE_TYPES.find((type) => type.test(head))?.mime;
}

function isBinaryText(bytes: Buffer): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** What in the text names a file: `@path` words, and pasted absolute image paths (quoted or not). */
export function findReferences(text: string): Array<{ name: string; pasted: boolean }> {
  const found: Array<{ name: string; pasted: boolean }> = [];
  for (const match of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) found.push({ name: match[1]!.replace(/[.,;:!?)\]]+$/, ''), pasted: false });
  for (const match of text.matchAll(/(?:^|\s)(['"]?)((?:\/|~\/)[^\n'"]*?\.(?:png|jpe?g|gif|webp))\1(?=\s|$)/gi)) {
    if (match[1] === '' && /\s/.test(match[2]!)) continue;
    found.push({ name: match[2]!, pasted: true });
  }
  return found;
}

const kb = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;

export function resolveAttachments(text: string, options: AttachOptions): Resolved {
  const attachments: Attachment[] = [];
  const problems: string[] = [];
  const home = options.home ?? os.homedir();
  let root: string;
  try {
    root = realpathSync(options.cwd);
  } catch {
    root = path.resolve(options.cwd);
  }
  const seen = new Set<string>();
  for (const reference of findReferences(text)) {
    const shown = reference.pasted ? reference.name : `@${reference.name}`;
    const expanded = reference.name.startsWith('~/') ? path.join(home, reference.name.slice(2)) : reference.name;
    const absolute = path.resolve(options.cwd, expanded);
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      // No such file: `@someone` is just text. A pasted path that does not exist is text too.
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const guarded = options.guard(absolute) ?? options.guard(real);
    if (guarded) {
      problems.push(`${shown} is never attached: ${guarded.reason} (paste the part you mean to share)`);
      continue;
    }
    const inside = real === root || real.startsWith(root + path.sep);
    if (!reference.pasted && !inside) {
      problems.push(`${shown} is outside the working directory (${real}); only files under it can be attached`);
      continue;
    }
    let stat;
    try {
      stat = statSync(real);
    } catch (error) {
      problems.push(`${shown}: ${(error as Error).message}`);
      continue;
    }
    if (stat.isDirectory()) {
      if (!reference.pasted) problems.push(`${shown} is a folder; attach its files one by one (Tab completes them)`);
      continue;
    }
    if (!stat.isFile()) continue;
    let bytes: Buffer;
    try {
      if (stat.size > Math.max(TEXT_LIMIT, IMAGE_LIMIT)) throw Object.assign(new Error('too large'), { code: 'TOO_LARGE' });
      bytes = readFileSync(real);
    } catch (error) {
      const large = (error as NodeJS.ErrnoException).code === 'TOO_LARGE';
      problems.push(large ? `${shown} is too large (${kb(stat.size)}; text up to ${kb(TEXT_LIMIT)}, images up to ${kb(IMAGE_LIMIT)})` : `${shown}: ${(error as Error).message}`);
      continue;
    }
    const mime = imageMime(bytes);
    const name = reference.pasted ? reference.name : reference.name.replace(/\/+$/, '');
    if (mime) {
      if (!options.vision) {
        problems.push(`${shown} is an image and ${options.modelName} is not marked vision: true in the config; switch with /model or remove it`);
        continue;
      }
      if (bytes.length > IMAGE_LIMIT) {
        problems.push(`${shown} is too large (${kb(bytes.length)}; images up to ${kb(IMAGE_LIMIT)})`);
        continue;
      }
      attachments.push({ path: name, kind: 'image', bytes: bytes.length, data: `data:${mime};base64,${bytes.toString('base64')}` });
      continue;
    }
    if (reference.pasted) continue;
    if (isBinaryText(bytes)) {
      problems.push(`${shown} is a binary file; only text files and images can be attached`);
      continue;
    }
    if (bytes.length > TEXT_LIMIT) {
      problems.push(`${shown} is too large (${kb(bytes.length)}; text files up to ${kb(TEXT_LIMIT)})`);
      continue;
    }
    attachments.push({ path: name, kind: 'text', bytes: bytes.length, data: bytes.toString('utf8') });
  }
  return { attachments, problems };
}
