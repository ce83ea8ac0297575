// `:resources`, `:resource`, `:prompts` and `:prompt` (README.md, "Resources and prompts"). Output
// is status lines: the chat view sanitizes them when it draws them, like every server text. A
// prompt's result goes into the input, where the user reads and edits it before sending.
import type { ElicitationHandler, McpManagerService, McpPromptInfo } from '../../services/mcp/index';
import { sanitize } from '../../services/terminal/sanitize';
import { hiddenCharacters, stripHidden } from '../../services/terminal/hidden-text';
import type { AppStore } from '../../state/store';
import { resourceText } from './resource-attach';
import type { ResourceIndex } from './resource-index';
import { resourceLinks } from './resource-links';

type Out = (lines: string[], level?: 'info' | 'warn' | 'error') => void;

export interface CatalogCommandHost {
  mcp: McpManagerService;
  store: AppStore;
  resources?: ResourceIndex;
  /** Shows a form (the elicitation frame) for a prompt's arguments. */
  askForm?: ElicitationHandler;
}

/** What `:resource` shows of a text at most; the rest is attached with `@alias:uri`. */
const PREVIEW_CHARS = 4000;
/** What a prompt may put into the input at most. */
const PROMPT_INPUT_CHARS = 64 * 1024;

const oneLine = (text: string | undefined, max = 100) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export async function resourcesCommand(words: string[], host: CatalogCommandHost, out: Out): Promise<void> {
  const index = host.resources;
  if (!index) return out(['resources are not available here'], 'error');
  const [alias] = words;
  await index.refresh(alias);
  const catalogs = index.catalogs().filter((catalog) => !alias || catalog.alias === alias);
  if (catalogs.length === 0) return out([alias ? `mcp ${alias}: not connected, or no resources` : 'no connected server lists resources']);
  const lines: string[] = [];
  for (const catalog of catalogs) {
    if (catalog.error) lines.push(`mcp ${catalog.alias}: ${catalog.error}`);
    if (catalog.resources.length === 0 && catalog.templates.length === 0) continue;
    lines.push(`${catalog.alias}: ${catalog.resources.length} resource${catalog.resources.length === 1 ? '' : 's'}, ${catalog.templates.length} template${catalog.templates.length === 1 ? '' : 's'}${catalog.subscribable ? ' (changes are reported for attached ones)' : ''}`);
    for (const resource of catalog.resources) {
      const changed = index.updated().has(`${catalog.alias}:${resource.uri}`) ? ' ● changed' : '';
      lines.push(`  @${catalog.alias}:${resource.uri}${changed}  ${oneLine(resource.title ?? resource.name, 40)}${resource.mimeType ? ` (${resource.mimeType})` : ''}${resource.description ? ` · ${oneLine(resource.description)}` : ''}`);
    }
    for (const template of catalog.templates) {
      lines.push(`  @${catalog.alias}:${template.uriTemplate}  ${oneLine(template.title ?? template.name, 40)} · template: put values for ${template.variables.map((name) => `{${name}}`).join(', ') || 'its parameters'}${template.description ? ` · ${oneLine(template.description)}` : ''}`);
    }
  }
  lines.push('attach one with @alias:uri in a message (Tab completes); :resource <alias:uri> shows it');
  out(lines);
}

/** `:resource` arguments: `alias:uri`; a number or a bare URI of a link in a tool result; nothing: the links. */
function resourceTarget(word: string | undefined, host: CatalogCommandHost, out: Out): { alias: string; uri: string } | undefined {
  const links = resourceLinks(host.store.getState().items);
  if (!word) {
    if (links.length === 0) out(['usage: :resource <alias:uri> (no resource links in tool results yet; :resources lists what servers offer)']);
    else out(['resource links in tool results (open one with :resource <n>):', ...links.map((link, index) => `  ${index + 1}. @${link.alias}:${link.uri}`)]);
    return undefined;
  }
  if (/^\d+$/.test(word)) {
    const link = links[Number(word) - 1];
    if (!link) out([`no resource link number ${word} (${links.length} in tool results)`], 'error');
    return link;
  }
  const reference = word.replace(/^@/, '');
  const colon = reference.indexOf(':');
  const alias = reference.slice(0, Math.max(0, colon));
  if (colon > 0 && host.mcp.servers().some((server) => server.alias === alias)) return { alias, uri: reference.slice(colon + 1) };
  const link = links.findLast((candidate) => candidate.uri === reference);
  if (!link) out([`${reference}: not alias:uri, and no tool result links to it`], 'error');
  return link;
}

export async function resourceCommand(words: string[], host: CatalogCommandHost, out: Out): Promise<void> {
  const target = resourceTarget(words[0], host, out);
  if (!target) return;
  const { alias, uri } = target;
  if (!host.mcp.readResource) return out(['resources are not available here'], 'error');
  const read = await host.mcp.readResource(alias, uri, { maxChars: PREVIEW_CHARS });
  if (!read.ok) return out([`mcp ${alias}: ${uri} could not be read: ${read.error}`], 'error');
  host.resources?.markRead(alias, uri);
  const kinds = read.parts.map((part) => `${part.mimeType ?? (part.kind === 'text' ? 'text' : 'binary')}, ${part.bytes} bytes`).join('; ');
  out([`@${alias}:${uri} (${kinds || 'empty'})`, ...resourceText(read.parts).split('\n')]);
}

export function promptsCommand(words: string[], host: CatalogCommandHost, out: Out): Promise<void> {
  return listPrompts(words[0], host, out);
}

async function listPrompts(alias: string | undefined, host: CatalogCommandHost, out: Out): Promise<void> {
  const index = host.resources;
  if (!index) return out(['prompts are not available here'], 'error');
  await index.refresh(alias);
  const prompts = index.prompts().filter((prompt) => !alias || prompt.alias === alias);
  if (prompts.length === 0) return out([alias ? `mcp ${alias}: not connected, or no prompts` : 'no connected server offers prompts']);
  const lines = prompts.map((prompt) => {
    const args = prompt.arguments.map((argument) => (argument.required ? argument.name : `[${argument.name}]`)).join(' ');
    return `  ${prompt.alias}/${prompt.name}${args ? ` ${args}` : ''}${prompt.description ? `  · ${oneLine(prompt.description)}` : ''}`;
  });
  out([`${prompts.length} prompt${prompts.length === 1 ? '' : 's'}:`, ...lines, 'run one with :prompt <alias>/<name> [argument=value …]; what is missing is asked in a form']);
}

/** `name=value` words (a value in double quotes may hold spaces). */
export function parsePromptArguments(text: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const match of text.matchAll(/([A-Za-z_][\w.-]*)=(?:"([^"]*)"|(\S*))/g)) args[match[1]!] = match[2] ?? match[3] ?? '';
  return args;
}

async function askArgument(prompt: McpPromptInfo, name: string, given: Record<string, string>, host: CatalogCommandHost): Promise<string | undefined | null> {
  const argument = prompt.arguments.find((candidate) => candidate.name === name)!;
  const suggestions = (await host.mcp.completeArgument?.(prompt.alias, { type: 'prompt', name: prompt.name }, name, '', given)) ?? [];
  const field: Record<string, unknown> = { type: 'string', title: name, ...(argument.description ? { description: argument.description } : {}) };
  // The server's suggestions (completion/complete) become the choices; without any, a text field.
  if (suggestions.length > 0) field.enum = suggestions;
  const answer = await host.askForm!(
    { mode: 'form', alias: prompt.alias, message: `prompt ${prompt.alias}/${prompt.name}: ${name}${argument.required ? '' : ' (optional)'}`, schema: { type: 'object', properties: { [name]: field }, ...(argument.required ? { required: [name] } : {}) } },
    new AbortController().signal,
  );
  if (answer.action !== 'accept') return null;
  const value = answer.content?.[name];
  return value === undefined || value === '' ? undefined : String(value);
}

export async function promptCommand(text: string, host: CatalogCommandHost, out: Out): Promise<void> {
  const [target = '', ...rest] = text.trim().split(/\s+/);
  const slash = target.indexOf('/');
  if (slash <= 0) return out(['usage: :prompt <alias>/<name> [argument=value …] (:prompts lists them)'], 'error');
  const alias = target.slice(0, slash);
  const name = target.slice(slash + 1);
  const index = host.resources;
  if (!index || !host.mcp.getPrompt) return out(['prompts are not available here'], 'error');
  let prompt = index.prompts().find((candidate) => candidate.alias === alias && candidate.name === name);
  if (!prompt) {
    await index.refresh(alias);
    prompt = index.prompts().find((candidate) => candidate.alias === alias && candidate.name === name);
  }
  if (!prompt) return out([`mcp ${alias}: no prompt named ${JSON.stringify(name)} (:prompts lists them)`], 'error');
  const given = parsePromptArguments(rest.join(' '));
  // Arguments not given are asked one at a time, so each one's suggestions can depend on the
  // earlier ones; optional ones only when none were given on the command line.
  const askOptional = Object.keys(given).length === 0;
  for (const argument of prompt.arguments) {
    if (argument.name in given || !host.askForm || (!argument.required && !askOptional)) continue;
    const value = await askArgument(prompt, argument.name, given, host);
    if (value === null) return out([`prompt ${alias}/${name}: cancelled`]);
    if (value !== undefined) given[argument.name] = value;
  }
  const missing = prompt.arguments.filter((argument) => argument.required && !(argument.name in given)).map((argument) => argument.name);
  if (missing.length > 0) return out([`prompt ${alias}/${name} needs ${missing.join(', ')}: :prompt ${alias}/${name} ${missing.map((one) => `${one}=…`).join(' ')}`], 'error');
  const result = await host.mcp.getPrompt(alias, name, given);
  if (!result.ok) return out([`prompt ${alias}/${name} failed: ${result.error}`], 'error');
  const single = result.messages.length === 1 && result.messages[0]!.role === 'user';
  const joined = result.messages.map((message) => (single || message.role === 'user' ? message.text : `[${message.role}] ${message.text}`)).join('\n\n');
  const cut = joined.length > PROMPT_INPUT_CHARS ? joined.slice(0, PROMPT_INPUT_CHARS) : joined;
  // The server's text becomes the user's draft: nothing in it may act on the terminal or hide from the reader.
  const hidden = hiddenCharacters(cut).length;
  const draft = sanitize(stripHidden(cut));
  host.store.getState().setDraft(draft);
  const notes = [joined.length > cut.length ? `cut at ${PROMPT_INPUT_CHARS} characters` : '', hidden > 0 ? 'hidden characters removed' : ''].filter(Boolean);
  out([`prompt ${alias}/${name}: ${result.messages.length} message${result.messages.length === 1 ? '' : 's'} in the input${notes.length > 0 ? ` (${notes.join(', ')})` : ''}; read and edit, then Enter sends`]);
}
