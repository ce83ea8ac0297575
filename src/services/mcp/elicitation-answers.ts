import { acceptAnswer, formFromSchema, formProblems, initialInput, inputFromAnswer } from './elicitation-form';
import type { ElicitationAnswer, ElicitationHandler, ElicitationRequest, FieldInput } from './types';

// Answers for servers that ask while nobody is there (`-p`, `aish-tui mcp call`), from
// `--elicitation '<json>'` or `--elicitation @answers.json`:
//
//   { "email": "ada@example.com",                  a field of that name, on any server
//     "everything": { "name": "Ada", "check": true }, fields of one server (its alias), preferred
//     "other": "decline" }                          that server's requests are declined
//
// A form is accepted when every field has a valid value from the answers or from its default;
// otherwise it is declined and the note says which fields were missing or wrong. URL requests are
// always declined (nobody can open the page); the note gives the URL. Without `--elicitation`
// everything is declined with a note.

export type ElicitationAnswers = Record<string, unknown>;

/** Reads the JSON of `--elicitation`; throws an Error saying what is wrong. */
export function parseElicitationAnswers(text: string, where = '--elicitation'): ElicitationAnswers {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${where}: expected a JSON object of answers, e.g. {"name": "Ada"}`);
  return parsed as ElicitationAnswers;
}

const isSection = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What `answers` say to this request, and a line for stderr explaining it. */
export function answerFromScript(request: ElicitationRequest, answers: ElicitationAnswers | undefined): { answer: ElicitationAnswer; note: string } {
  const who = `mcp ${request.alias}`;
  if (request.mode === 'url') {
    return { answer: { action: 'decline' }, note: `${who}: asks to open ${request.url} (${request.message}); declined: nobody can open it here` };
  }
  if (!answers) return { answer: { action: 'decline' }, note: `${who}: asked for input (${request.message}); declined: pass --elicitation '<json>' to answer` };
  const section = answers[request.alias];
  if (section === 'decline' || section === 'cancel') return { answer: { action: section }, note: `${who}: asked for input; ${section === 'decline' ? 'declined' : 'cancelled'} as --elicitation says` };
  const read = formFromSchema(request.schema);
  if ('problem' in read) return { answer: { action: 'decline' }, note: `${who}: asked for input; declined: ${read.problem}` };
  const inputs: FieldInput[] = read.form.fields.map((field) => {
    const given = isSection(section) && field.name in section ? section[field.name] : field.name in answers && !isSection(answers[field.name]) ? answers[field.name] : undefined;
    return given === undefined ? initialInput(field) : (inputFromAnswer(field, given) ?? initialInput(field));
  });
  const accepted = acceptAnswer(read.form, inputs);
  if (accepted) return { answer: accepted, note: `${who}: asked for input; answered from --elicitation (${Object.keys(accepted.content ?? {}).join(', ') || 'no fields'})` };
  const problems = formProblems(read.form, inputs).flatMap((problem, index) => (problem ? [`${read.form.fields[index]!.name}: ${problem}`] : []));
  return { answer: { action: 'decline' }, note: `${who}: asked for input; declined: --elicitation does not answer it (${problems.join('; ')})` };
}

/** An elicitation handler for scripts: answers from `answers`, each request noted with `note`. */
export function scriptedElicitation(answers: ElicitationAnswers | undefined, note: (line: string) => void): ElicitationHandler {
  return (request) => {
    const { answer, note: line } = answerFromScript(request, answers);
    note(line);
    return Promise.resolve(answer);
  };
}
