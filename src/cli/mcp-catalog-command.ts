// `aish-tui mcp resources <alias>`, `mcp read <alias> <uri>`, `mcp prompts <alias>` (README.md,
// "MCP servers"): a server's resources and templates, one resource's text, its prompts, as
// `mcp tools` lists tools. Text output is sanitized; --json is JSON (escaped by JSON). A read text is
// capped like an attachment and a binary part given as its type and size.
import type { McpManagerService } from '../services/mcp/index';
import { sanitizeStrict, terminalSafeJson } from '../services/terminal/sanitize';
import { TEXT_LIMIT } from '../runtime/attachments/resolve';
import { resourceText } from '../runtime/resources/resource-attach';

export const CATALOG_SUBCOMMANDS = ['resources', 'read', 'prompts'] as const;
export type CatalogSubcommand = (typeof CATALOG_SUBCOMMANDS)[number];

export interface CatalogOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  json: boolean;
}

const json = (value: unknown) => `${terminalSafeJson(value, 2)}\n`;
const lines = (items: string[]) => items.map((line) => `${sanitizeStrict(line)}\n`).join('');

/** Runs one catalog subcommand against a connected server; the exit code (1: it failed, said on stderr). */
export async function runCatalogCommand(manager: McpManagerService, sub: CatalogSubcommand, alias: string, uri: string | undefined, io: CatalogOutput): Promise<number> {
  const fail = (message: string) => {
    io.stderr(`aish-tui: ${sanitizeStrict(message)}\n`);
    return 1;
  };
  if (!manager.resourceCatalog || !manager.readResource || !manager.listPrompts) return fail(`mcp ${sub}: resources and prompts are not available here`);
  if (sub === 'resources') {
    const catalog = await manager.resourceCatalog(alias, { refresh: true });
    if (catalog.error) return fail(`mcp ${alias}: ${catalog.error}`);
    if (io.json) {
      io.stdout(json({ server: alias, resources: catalog.resources, templates: catalog.templates, subscribable: catalog.subscribable }));
      return 0;
    }
    const resourceLines = catalog.resources.map((resource) => `${alias}:${resource.uri}  ${resource.title ?? resource.name}${resource.mimeType ? `  (${resource.mimeType})` : ''}`);
    const templateLines = catalog.templates.map((template) => `${alias}:${template.uriTemplate}  ${template.title ?? template.name}  (template: ${template.variables.join(', ') || 'no parameters'})`);
    io.stdout(lines([...resourceLines, ...templateLines].length > 0 ? [...resourceLines, ...templateLines] : [`${alias} lists no resources`]));
    return 0;
  }
  if (sub === 'read') {
    const read = await manager.readResource(alias, uri!, { maxChars: TEXT_LIMIT });
    if (!read.ok) return fail(`${alias}:${uri} could not be read: ${read.error}`);
    if (io.json) io.stdout(json(read));
    else io.stdout(`${sanitizeStrict(resourceText(read.parts))}\n`);
    return 0;
  }
  const listed = await manager.listPrompts(alias, { refresh: true });
  if (listed.error) return fail(`mcp ${alias}: ${listed.error}`);
  if (io.json) {
    io.stdout(json({ server: alias, prompts: listed.prompts }));
    return 0;
  }
  const promptLines = listed.prompts.map((prompt) => {
    const args = prompt.arguments.map((argument) => (argument.required ? argument.name : `[${argument.name}]`)).join(' ');
    return `${alias}/${prompt.name}${args ? ` ${args}` : ''}${prompt.description ? `  ${prompt.description}` : ''}`;
  });
  io.stdout(lines(promptLines.length > 0 ? promptLines : [`${alias} lists no prompts`]));
  return 0;
}
