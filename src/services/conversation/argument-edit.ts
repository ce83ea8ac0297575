// Arguments the user edited in the approval frame (README.md, "Safety"): read back from the JSON
// the frame showed, checked like the model's (a JSON object that fits the tool's input schema),
// and summed up in a line that the transcript, the session log and the model's tool turn carry.
import { parseArguments } from './tool-call';

export const EDITED_NOTE = '[aish] the user edited the arguments before the call ran';

/** The edited text as arguments, or why they cannot be used. */
export function readEditedArguments(text: string, schemaProblem: (args: Record<string, unknown>) => string | undefined): { ok: true; value: Record<string, unknown> } | { ok: false; problem: string } {
  if (text.trim().length === 0) return { ok: false, problem: 'empty: write a JSON object ({} for no arguments)' };
  const parsed = parseArguments(text);
  if (!parsed.ok) return { ok: false, problem: parsed.problem.replace(/^\[aish\] tool arguments /, '') };
  const invalid = schemaProblem(parsed.value);
  if (invalid) return { ok: false, problem: `does not fit the tool's input schema: ${invalid}` };
  return parsed;
}

const VALUE_CHARS = 40;

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

/** How the arguments changed, one short line: `path: "/a" → "/b"; +limit; -recursive`. */
export function describeEdit(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const changes: string[] = [];
  for (const [name, value] of Object.entries(after)) {
    if (!Object.hasOwn(before, name)) changes.push(`+${name}: ${shortJson(value)}`);
    else if (JSON.stringify(before[name]) !== JSON.stringify(value)) changes.push(`${name}: ${shortJson(before[name])} → ${shortJson(value)}`);
  }
  for (const name of Object.keys(before)) if (!Object.hasOwn(after, name)) changes.push(`-${name}`);
  return changes.length > 0 ? changes.join('; ') : 'no change';
}

/** The tool turn the model reads: what it asked for was not what ran. */
export function editedToolTurn(summary: string, content: string): string {
  return `${EDITED_NOTE} (${summary}).\n${content}`;
}
