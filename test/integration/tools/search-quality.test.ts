import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolInfo, ServerSnapshot } from '../../../src/services/mcp/index';
import { buildToolIndex, type ToolIndex } from '../../../src/services/tools/names';
import { searchTools } from '../../../src/services/tools/search';
import { EVERYTHING, ROOT, testManager, type TestManager } from '../../helpers/mcp';

// README.md, "Tool budget": the tool search must find the right tool for plain-language requests
// on a realistic mix: server-everything and a generated 300-tool server, both connected for real
// over stdio, and the tool lists of the filesystem, memory and git servers (filesystem and memory
// as their published packages list them, see test/fixtures/tools/). The measure is the share of
// requests whose right tool is among the first five results.

const MANY = path.join(ROOT, 'test', 'helpers', 'many-tools-server.mjs');
const fixture = (name: string) => (JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'tools', `${name}.json`), 'utf8')) as { tools: McpToolInfo[] }).tools;
const snapshot = (alias: string, tools: McpToolInfo[]): ServerSnapshot => ({ alias, target: alias, state: 'ready', tools, stderr: [] });

/** Plain-language request -> the tool that does it. */
const REQUESTS: Array<[string, string]> = [
  ["show me what's in notes.txt", 'filesystem__read_text_file'],
  ['save this text into a new file called todo.md', 'filesystem__write_file'],
  ['make a folder named backups', 'filesystem__create_directory'],
  ['rename report.pdf to final.pdf', 'filesystem__move_file'],
  ['what files are in my projects directory', 'filesystem__list_directory'],
  ['find every file whose name matches *.log', 'filesystem__search_files'],
  ['how big is this file and when was it last modified', 'filesystem__get_file_info'],
  ['replace a line of text inside config.yaml', 'filesystem__edit_file'],
  ['show the whole folder structure as a tree', 'filesystem__directory_tree'],
  ['look at the picture photo.png', 'filesystem__read_media_file'],
  ['which directories am I allowed to access', 'filesystem__list_allowed_directories'],
  ['add a new person named Alice to the knowledge graph', 'memory__create_entities'],
  ['link Alice to ACME with the relation works_at', 'memory__create_relations'],
  ['forget the entity Bob entirely', 'memory__delete_entities'],
  ['search my memory for anything about coffee', 'memory__search_nodes'],
  ['dump the entire knowledge graph', 'memory__read_graph'],
  ['add a new observation to an existing entity', 'memory__add_observations'],
  ["what changed in the repo that I haven't staged yet", 'git__git_diff_unstaged'],
  ['commit my changes with the message "fix typo"', 'git__git_commit'],
  ['start a new git branch called feature-x', 'git__git_create_branch'],
  ['switch to the main branch', 'git__git_checkout'],
  ['show the recent commit history', 'git__git_log'],
  ['stage README.md for the next commit', 'git__git_add'],
  ['which files are modified in the working tree', 'git__git_status'],
  ['show me the contents of commit abc123', 'git__git_show'],
  ['echo back this message', 'everything__echo'],
  ['add two numbers together', 'everything__get-sum'],
  ['show me a tiny image', 'everything__get-tiny-image'],
  ['what environment variables does the server have', 'everything__get-env'],
  ['compress a file with gzip', 'everything__gzip-file-as-resource'],
  ['open a new support ticket', 'many__tickets_create_ticket'],
  ['issue a refund to a customer', 'many__billing_create_refund'],
  ['list all invoices', 'many__billing_list_invoices'],
  ['look up the details of employee 42', 'many__hr_get_employee'],
  ['who are the candidates who applied', 'many__hr_list_candidates'],
  ['show every deal in the CRM', 'many__crm_list_deals'],
  ['schedule a new calendar event', 'many__calendar_create_event'],
  ['list the buckets in cloud storage', 'many__storage_list_buckets'],
  ['post a message in a team chat channel', 'many__chat_create_chat_message'],
  ['change the fields of an existing invoice', 'many__billing_update_invoice'],
  ['what alerts are firing in monitoring', 'many__monitoring_list_alerts'],
  ['get one page of the team wiki', 'many__wiki_get_page'],
  ['take a backup of the managed database', 'many__database_create_backup'],
  ['add a new product to the warehouse inventory', 'many__inventory_create_product'],
  ['roll out a new release with the deployment pipeline', 'many__deploy_create_release'],
];

/** At least this share of the requests finds its tool in the first five (a quality bar, not timing). */
const TOP5_HIT_RATE = 0.9;

describe('tool search quality on a realistic mix', () => {
  let mcp: TestManager;
  let index: ToolIndex;

  beforeAll(async () => {
    mcp = testManager();
    await Promise.all([
      mcp.manager.connect('everything', { command: process.execPath, args: [EVERYTHING, 'stdio'] }),
      mcp.manager.connect('many', { command: process.execPath, args: [MANY, '--count', '300'] }),
    ]);
    const live = mcp.manager.servers();
    expect(live.map((server) => server.state)).toEqual(['ready', 'ready']);
    index = buildToolIndex([...live, snapshot('filesystem', fixture('filesystem')), snapshot('memory', fixture('memory')), snapshot('git', fixture('git'))]);
  }, 60_000);

  afterAll(async () => {
    await mcp?.dispose();
  });

  it(`finds the right tool in the top 5 for at least ${TOP5_HIT_RATE * 100}% of plain-language requests among 340+ tools`, async () => {
    expect(index.tools.length).toBeGreaterThan(340);
    const misses: string[] = [];
    let hits = 0;
    for (const [request, expected] of REQUESTS) {
      expect(index.byWireName.has(expected), `${expected} is one of the tools`).toBe(true);
      const found = (await searchTools(index.tools, request, 5)).map((hit) => hit.wireName);
      if (found.includes(expected)) hits++;
      else misses.push(`${request} -> wanted ${expected}, got ${found.join(', ')}`);
    }
    const rate = hits / REQUESTS.length;
    console.log(`tool search top-5 hit rate: ${hits}/${REQUESTS.length} (${(rate * 100).toFixed(0)}%)${misses.length > 0 ? `\nmisses:\n${misses.join('\n')}` : ''}`);
    expect(rate, misses.join('\n')).toBeGreaterThanOrEqual(TOP5_HIT_RATE);
  });

  it('a search returns names and one-line descriptions only', async () => {
    const [first] = await searchTools(index.tools, 'read a text file', 5);
    expect(first?.wireName).toBe('filesystem__read_text_file');
    expect(first?.summary).not.toContain('\n');
    expect(first!.summary.length).toBeLessThanOrEqual(160);
  });
});
