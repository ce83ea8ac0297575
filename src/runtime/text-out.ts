// The session's side of `:copy` and `:export` (copy-export.ts has the pure parts): where the text
// goes (the clipboard through the screen writer, else a file) and where the Markdown is written.
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import type { AppConfig } from '../services/config/load';
import { displayPath } from '../services/config/paths';
import type { Redactor } from '../services/history/index';
import type { AppStore } from '../state/store';
import { osc52, OSC52_MAX_BASE64, sessionMarkdown, writeCopyFile } from './copy-export';

export interface TextOutDeps {
  store: AppStore;
  config: Pick<AppConfig, 'paths'>;
  /** The session log's redactor (runtime.ts). */
  redactor(): Redactor;
  cwd: string;
  env: NodeJS.ProcessEnv;
  sessionId(): string | undefined;
  status(level: 'info' | 'warn' | 'error', text: string): void;
  clipboard?: (sequence: string) => boolean;
}

export function createTextOut(deps: TextOutDeps) {
  const { status } = deps;
  return {
    copy(text: string, what: string) {
      const sequence = osc52(text);
      const fits = sequence.length - 9 <= OSC52_MAX_BASE64;
      if (fits && deps.clipboard?.(sequence)) {
        status('info', `copied ${what} (${text.length} characters) to the clipboard (OSC 52)`);
        return;
      }
      try {
        const file = writeCopyFile(path.join(deps.config.paths.stateDir, 'copies'), text);
        const why = !fits ? 'too large for the terminal clipboard' : 'this terminal cannot take a clipboard request';
        status('info', `${what} (${text.length} characters) is in ${displayPath(file, deps.env)} (${why})`);
      } catch (error) {
        status('error', `:copy: could not write the file: ${(error as Error).message}`);
      }
    },
    exportSession(file: string | undefined) {
      const messages = deps.store.getState().messages;
      if (messages.length === 0) return status('info', 'nothing to export yet: the conversation is empty');
      const id = deps.sessionId() ?? new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      const target = path.resolve(deps.cwd, file ?? `aish-${id}.md`);
      try {
        writeFileSync(target, sessionMarkdown(messages, { title: `aish session ${id}`, redact: deps.redactor() }), { mode: 0o600, flag: 'wx' });
        status('info', `exported ${messages.length} messages to ${displayPath(target, deps.env)}`);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        status('error', code === 'EEXIST' ? `:export: ${displayPath(target, deps.env)} exists; give another file name` : `:export: ${(error as Error).message}`);
      }
    },
  };
}
