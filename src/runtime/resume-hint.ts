import { existsSync } from 'node:fs';
import { sessionFile } from '../services/history/index';

/**
 * The line printed on the normal screen after quitting, so the way back is in the scrollback
 * (README.md, "Sessions"): only for a session that was saved (history on, something written).
 */
export function resumeHint(dir: string, id: string | undefined): string | undefined {
  if (!id) return undefined;
  try {
    if (!existsSync(sessionFile(dir, id))) return undefined;
  } catch {
    return undefined;
  }
  return `To continue this session: aish-tui --resume ${id}`;
}
