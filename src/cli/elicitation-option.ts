import { readFileSync } from 'node:fs';
import { ConfigError } from '../services/config/errors';
import { parseElicitationAnswers, scriptedElicitation, type ElicitationHandler } from '../services/mcp/index';

/**
 * The elicitation handler of a run nobody watches (`-p`, `aish-tui mcp call`): answers from
 * `--elicitation '<json>'` or `--elicitation @file.json`, each request noted on stderr; without the
 * flag every request is declined (README, "Elicitation"). A bad value is a usage error (exit 2).
 */
export function elicitationFromOption(option: string | undefined, note: (line: string) => void): ElicitationHandler {
  if (option === undefined) return scriptedElicitation(undefined, note);
  let text = option;
  let where = '--elicitation';
  if (option.startsWith('@')) {
    where = `--elicitation ${option}`;
    try {
      text = readFileSync(option.slice(1), 'utf8');
    } catch (error) {
      throw new ConfigError([`${where}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
    }
  }
  try {
    return scriptedElicitation(parseElicitationAnswers(text, where), note);
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
}
