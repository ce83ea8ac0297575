// Ctrl+G (and Ctrl+X Ctrl+E): the draft is edited in the user's own editor ($VISUAL, else
// $EDITOR, else vi). The terminal is handed over for the time it runs (main screen, cooked
// mode, our key reader and screen writer paused) and taken back after, with a full redraw.
// The draft goes through a private temporary file (0600 in a 0700 directory), removed after.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TerminalHandover {
  /** Stops reading keys and drawing, leaves the alternate screen and raw mode. */
  suspend(): void;
  /** Takes the terminal back and redraws everything. */
  resume(): void;
}

export interface ExternalEditOptions {
  env: NodeJS.ProcessEnv;
  handover: TerminalHandover;
  /** Where the temporary file goes (default: the system's temporary directory). */
  tmpDir?: string;
}

export type ExternalEditResult = { text: string } | { error: string };

/** The editor command the user asked for: $VISUAL, then $EDITOR, then vi. It may carry arguments (`code --wait`). */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/** Runs the editor on `text` and resolves with what was saved; never rejects. */
export async function editExternally(text: string, options: ExternalEditOptions): Promise<ExternalEditResult> {
  const command = editorCommand(options.env);
  let dir: string;
  try {
    dir = mkdtempSync(path.join(options.tmpDir ?? os.tmpdir(), 'aish-edit-'));
  } catch (error) {
    return { error: `cannot create a temporary file: ${(error as Error).message}` };
  }
  const file = path.join(dir, 'message.md');
  try {
    writeFileSync(file, text, { mode: 0o600 });
    options.handover.suspend();
    let outcome: { code: number | null; signal: NodeJS.Signals | null } | { spawnError: string };
    try {
      outcome = await new Promise((resolve) => {
        // Through the shell, as other programs do, so `code --wait` or `vim -u NONE` work.
        const child = spawn('/bin/sh', ['-c', `${command} "$1"`, 'sh', file], { stdio: 'inherit', env: options.env });
        child.once('error', (error) => resolve({ spawnError: error.message }));
        child.once('exit', (code, signal) => resolve({ code, signal }));
      });
    } finally {
      options.handover.resume();
    }
    if ('spawnError' in outcome) return { error: `could not start ${command}: ${outcome.spawnError}` };
    if (outcome.code !== 0) return { error: `${command} ${outcome.signal ? `was stopped by ${outcome.signal}` : `exited with code ${outcome.code}`}` };
    // Editors end the file with a newline the message never had.
    return { text: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
