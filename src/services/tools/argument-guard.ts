// The argument guard (README.md, "Safety"; docs/ARCHITECTURE.md, Security invariants 8): a rule
// allows a (server, tool) pair, never whatever arguments the model picks. A call whose arguments
// name a credential or key path, one of aish-tui's own files, hold key material or a token, hide
// characters from the eye or hold a well-known dangerous command goes back to "ask" (headless:
// denied) with these findings shown in the frame.
//
// It is pure: strings in, findings out. Every string of the arguments is checked, object keys
// too, at any depth. Paths are compared after a lexical normalisation (no file system access, so
// symlinks are not followed): URL-decoding, file: URLs, backslashes, `~`, `$HOME`, `..`, `.`,
// repeated slashes, Unicode compatibility forms, relative to the working directory, case folded.
import path from 'node:path';
import picomatch from 'picomatch';
import { commandWarnings, hiddenCharacters } from '../shell/danger';

export type GuardKind = 'sensitive-path' | 'app-file' | 'secret' | 'hidden-characters' | 'command';

export interface GuardFinding {
  kind: GuardKind;
  /** The top-level argument it was found in (what an argument rule can name); '' for the arguments as a whole. */
  argument: string;
  /** Where, as shown: `path`, `files[2].name`, `options (key "…")`. */
  where: string;
  /** What was found, without the secret itself: `a credential or key path: ~/.ssh/id_rsa`. */
  reason: string;
}

/**
 * Credential and key paths, as globs over the normalised absolute path (case-insensitive, dot
 * files included). `mcp.argumentGuard.paths` adds to them; `defaults: false` drops these.
 */
export const DEFAULT_SENSITIVE_PATHS: readonly string[] = [
  '**/.ssh/**',
  '**/.gnupg/**',
  '**/.aws/**',
  '**/.azure/**',
  '**/.config/gcloud/**',
  '**/.kube/**',
  '**/.docker/config.json',
  '**/.netrc',
  '**/_netrc',
  '**/.npmrc',
  '**/.pypirc',
  '**/.git-credentials',
  '**/.config/gh/hosts.yml',
  '**/.password-store/**',
  '**/.local/share/keyrings/**',
  '**/.vault-token',
  '**/.pgpass',
  '**/credentials.json',
  '**/.env',
  '**/.env.*',
  '**/*.env',
  '**/*_rsa',
  '**/*_dsa',
  '**/*_ecdsa',
  '**/*_ed25519',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.keystore',
  '**/*.jks',
  '**/*.kdbx',
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/sudoers',
  '/etc/sudoers.d/**',
];

/** aish-tui's own files wherever the home is: config, state (sessions, pins, OAuth tokens, input history). */
const APP_FILE_GLOBS = ['**/.config/aish/**', '**/.local/state/aish/**'];

export interface ArgumentGuardOptions {
  home: string;
  cwd: string;
  /** Credential and key path globs (`~/` and `$HOME/` expand to the home). */
  sensitivePaths: readonly string[];
  /** aish-tui's own directories and files: config dir, state dir, config file, session dir. */
  appPaths: readonly string[];
  /** Configured secrets (API keys, bearer tokens): an argument holding one is flagged. Asked per call (the config's models may be completed later). */
  secrets?: () => readonly string[];
}

export type ArgumentGuard = (args: unknown) => GuardFinding[];

/** Key material and tokens with well-known shapes. */
const SECRET_SHAPES: ReadonlyArray<{ what: string; test: RegExp }> = [
  { what: 'a private key', test: /-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----/ },
  { what: 'a GitHub token', test: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { what: 'a GitLab token', test: /\bgl(?:pat|dt|rt|cbt|ptt|ft)-[A-Za-z0-9_-]{20,}/ },
  { what: 'an OpenAI or Anthropic key', test: /\bsk-(?:proj-|ant-|svcacct-)?[A-Za-z0-9_-]{20,}/ },
  { what: 'a Slack token', test: /\bxox[abposre]-[A-Za-z0-9-]{10,}/ },
  { what: 'an AWS access key id', test: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/ },
  { what: 'a Google API key', test: /\bAIza[0-9A-Za-z_-]{35}/ },
  { what: 'a Stripe key', test: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/ },
  { what: 'an npm token', test: /\bnpm_[A-Za-z0-9]{36}/ },
  { what: 'a Hugging Face token', test: /\bhf_[A-Za-z0-9]{30,}/ },
  { what: 'a JSON web token', test: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
];

/** Deeper than this the arguments are not walked: that itself is a finding. */
const MAX_DEPTH = 64;
/** A whole string longer than this is looked at word by word only. */
const MAX_WHOLE_PATH = 4096;

function decodePercent(text: string): string {
  let out = text;
  // Up to three rounds: `%252e` is `%2e` is `.`.
  for (let round = 0; round < 3 && /%[0-9a-f]{2}/i.test(out); round++) {
    out = out.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      }
    });
  }
  return out;
}

const PLAIN_WORD = /^[A-Za-z0-9._/-]+$/;

/** One regular expression for a list of globs: one test per candidate, however long the list. */
function globsMatcher(globs: readonly string[], options: picomatch.PicomatchOptions): (file: string) => boolean {
  if (globs.length === 0) return () => false;
  const sources = globs.map((glob) => picomatch.makeRe(glob, options).source);
  const combined = new RegExp(sources.map((source) => `(?:${source})`).join('|'), options.nocase ? 'i' : '');
  return (file) => combined.test(file);
}

/**
 * The absolute, lexically resolved path a string would name, lower-cased; undefined when it is
 * empty. Never touches the file system.
 */
export function normalizePath(candidate: string, home: string, cwd: string): string | undefined {
  return resolveLexically(candidate, home, cwd)?.toLowerCase();
}

/** The absolute path a string would name, resolved lexically, case kept. */
function resolveLexically(candidate: string, home: string, cwd: string): string | undefined {
  // Most words of a long text are plain: nothing to decode or expand.
  if (PLAIN_WORD.test(candidate)) return path.posix.resolve(cwd, candidate);
  let text = candidate.normalize('NFKC').replace(/[\p{Cf}\p{Cc}]/gu, '');
  text = decodePercent(text).normalize('NFKC').replace(/[\p{Cf}\p{Cc}]/gu, '');
  text = text.replace(/\\/g, '/');
  text = text.replace(/^file:(?:\/\/[^/]*)?(?=\/)/i, '');
  text = text.replace(/\$\{?HOME\}?|%USERPROFILE%|%HOMEPATH%/gi, home);
  // The XDG variables aish-tui's own paths come from, at their defaults.
  text = text.replace(/\$\{?XDG_CONFIG_HOME\}?/g, `${home}/.config`).replace(/\$\{?XDG_STATE_HOME\}?/g, `${home}/.local/state`).replace(/\$\{?XDG_DATA_HOME\}?/g, `${home}/.local/share`);
  if (text === '~' || text.startsWith('~/')) text = home + text.slice(1);
  else if (/^~[^/]+/.test(text)) text = path.posix.join(path.posix.dirname(home), text.slice(1));
  // `C:/Users/…` is absolute on Windows; keep the drive as a first segment.
  if (/^[a-z]:\//i.test(text)) text = `/${text}`;
  if (text.trim() === '') return undefined;
  return path.posix.resolve(cwd.replace(/\\/g, '/'), text);
}

/** The strings a value may name paths with: itself, and its words split at shell and list punctuation. */
function pathCandidates(value: string): string[] {
  const out = new Set<string>();
  const whole = value.trim();
  if (whole.length > 0 && whole.length <= MAX_WHOLE_PATH) out.add(whole);
  for (const word of value.split(/[\s;|&<>()'"`,=[\]{}]+/)) {
    if (word === '') continue;
    out.add(word);
    // `scp host:~/.ssh/id_rsa`, `file:///…`, `C:\…`: each side of a colon too.
    if (word.includes(':')) for (const part of word.split(':')) if (part !== '') out.add(part);
  }
  // What a shell makes of a word: `~/.s''sh`, `~/.s"s"h`, `~/.s\sh` are `~/.ssh`.
  for (const word of value.split(/[\s;|&<>()`]+/)) {
    if (/['"\\]/.test(word)) out.add(word.replace(/['"\\]/g, ''));
  }
  return [...out];
}

function expandGlob(glob: string, home: string): string {
  let out = glob.replace(/\$\{?HOME\}?/g, home);
  if (out === '~' || out.startsWith('~/')) out = home + out.slice(1);
  return out.toLowerCase();
}

/** `~/…` instead of the home, for the reasons shown. */
function shown(file: string, home: string): string {
  const lowerHome = home.toLowerCase();
  const display = file === lowerHome || file.startsWith(`${lowerHome}/`) ? `~${file.slice(lowerHome.length)}` : file;
  return display.length > 120 ? `${display.slice(0, 117)}…` : display;
}

function describeWhere(pathParts: readonly (string | number)[], key?: string): string {
  let out = '';
  for (const part of pathParts) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  if (key !== undefined) return `${out === '' ? 'arguments' : out} (a key)`;
  return out === '' ? 'arguments' : out;
}

/** Why one path is guarded (a credential or key path, or aish-tui's own file), or undefined. */
export type PathGuard = (file: string) => { kind: 'sensitive-path' | 'app-file'; reason: string } | undefined;

type PathOptions = Pick<ArgumentGuardOptions, 'home' | 'cwd' | 'sensitivePaths' | 'appPaths'>;

/** Classifies a path already normalised (normalizePath). */
function pathClassifier(options: PathOptions, home: string): PathGuard {
  const sensitive = globsMatcher(options.sensitivePaths.map((glob) => expandGlob(glob, home)), { dot: true, nocase: true });
  const appRoots = options.appPaths.map((file) => normalizePath(file, home, options.cwd)).filter((file): file is string => file !== undefined);
  const appGlobs = globsMatcher(APP_FILE_GLOBS, { dot: true, nocase: true });
  const isAppFile = (file: string) => appRoots.some((root) => file === root || file.startsWith(`${root}/`)) || appGlobs(file);
  return (file) => {
    if (isAppFile(file)) return { kind: 'app-file', reason: `aish-tui's own config or state: ${shown(file, home)}` };
    if (sensitive(file)) return { kind: 'sensitive-path', reason: `a credential or key path: ${shown(file, home)}` };
    return undefined;
  };
}

const cleanHome = (home: string) => home.replace(/\\/g, '/').replace(/\/+$/, '') || '/';

/** The path half of the guard alone: what `@file` attachments are checked with too (runtime/attachments). */
export function createPathGuard(options: PathOptions): PathGuard {
  const home = cleanHome(options.home);
  const classify = pathClassifier(options, home);
  return (candidate) => {
    const file = normalizePath(candidate, home, options.cwd);
    return file === undefined ? undefined : classify(file);
  };
}

export function createArgumentGuard(options: ArgumentGuardOptions): ArgumentGuard {
  const home = cleanHome(options.home);
  const cwd = options.cwd;
  const pathGuard = pathClassifier(options, home);
  const secrets = () => (options.secrets?.() ?? []).filter((secret) => secret.length >= 8);

  function checkPaths(value: string, add: (kind: GuardKind, reason: string) => void): void {
    const seen = new Set<string>();
    for (const candidate of pathCandidates(value)) {
      const file = normalizePath(candidate, home, cwd);
      if (file === undefined || seen.has(file)) continue;
      seen.add(file);
      const found = pathGuard(file);
      if (found) add(found.kind, found.reason);
    }
  }

  function checkSecrets(value: string, add: (kind: GuardKind, reason: string) => void, configured: readonly string[]): void {
    for (const shape of SECRET_SHAPES) if (shape.test.test(value)) add('secret', `holds what looks like ${shape.what}`);
    if (configured.some((secret) => value.includes(secret))) add('secret', 'holds one of the API keys or tokens of your config');
  }

  return (args) => {
    const findings: GuardFinding[] = [];
    const configured = secrets();
    // Every string in order, and the values alone: a token may be split over keys and values.
    const strings: string[] = [];
    const values: string[] = [];
    const note = (argument: string, where: string) => (kind: GuardKind, reason: string) => {
      if (!findings.some((finding) => finding.where === where && finding.reason === reason)) findings.push({ kind, argument, where, reason });
    };
    const checkString = (value: string, argument: string, where: string, isKey: boolean) => {
      strings.push(value);
      const add = note(argument, where);
      const hidden = hiddenCharacters(value, { lineBreaks: true });
      if (hidden.length > 0) add('hidden-characters', `holds control or invisible characters (${hidden.slice(0, 6).join(' ')}${hidden.length > 6 ? ' …' : ''})`);
      checkPaths(value, add);
      checkSecrets(value, add, configured);
      if (!isKey) for (const warning of commandWarnings(value)) add('command', `a command that ${warning}`);
    };
    const walk = (value: unknown, parts: (string | number)[], depth: number) => {
      const argument = typeof parts[0] === 'string' ? parts[0] : '';
      if (depth > MAX_DEPTH) {
        note(argument, describeWhere(parts))('hidden-characters', `nested deeper than ${MAX_DEPTH} levels: not checked`);
        return;
      }
      if (typeof value === 'string') {
        values.push(value);
        checkString(value, argument, describeWhere(parts), false);
      }
      else if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...parts, index], depth + 1));
      else if (value !== null && typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) {
          checkString(key, parts.length === 0 ? key : argument, describeWhere(parts, key), true);
          walk(item, [...parts, key], depth + 1);
        }
      }
    };
    walk(args, [], 0);
    // A token split over several strings (`{"a": "ghp_", "b": "…"}`) is whole again when joined.
    if (!findings.some((finding) => finding.kind === 'secret')) {
      const add = note('', 'arguments (joined)');
      checkSecrets(strings.join(''), add, configured);
      checkSecrets(values.join(''), add, configured);
    }
    return findings;
  };
}

/** One line per finding, as the frame and headless messages say them. */
export function describeFindings(findings: readonly GuardFinding[]): string[] {
  return findings.map((finding) => `${finding.where}: ${finding.reason}`);
}

/** Whether an argument rule's glob matches a value: as a path when the glob is one, else as it is. */
export type ArgumentMatcher = (glob: string, value: unknown) => boolean;

export function createArgumentMatcher(home: string, cwd: string): ArgumentMatcher {
  const cleanHome = home.replace(/\\/g, '/').replace(/\/+$/, '') || '/';
  const cache = new Map<string, (value: string) => boolean>();
  return (glob, value) => {
    if (typeof value !== 'string') return false;
    let test = cache.get(glob);
    if (!test) {
      const isPath = /^(?:\/|~|\$\{?HOME\}?)/.test(glob);
      if (isPath) {
        // Case-sensitive on purpose: an allow rule never covers more than it spells.
        const match = picomatch(expandGlobKeepCase(glob, cleanHome), { dot: true });
        test = (text) => {
          const file = resolveLexically(text, cleanHome, cwd);
          return file !== undefined && match(file);
        };
      } else {
        const match = picomatch(glob, { dot: true });
        test = (text) => match(text);
      }
      cache.set(glob, test);
    }
    return test(value);
  };
}

function expandGlobKeepCase(glob: string, home: string): string {
  let out = glob.replace(/\$\{?HOME\}?/g, home);
  if (out === '~' || out.startsWith('~/')) out = home + out.slice(1);
  return out;
}
