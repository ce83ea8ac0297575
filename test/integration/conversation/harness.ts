// Shared set-up for the conversation loop tests: a real config, the scripted broker over loopback,
// the real broker client and a real MCP manager (built-in server in memory, server-everything over stdio).
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { streamChat } from '../../../src/services/broker/index';
import { loadConfig, type AppConfig } from '../../../src/services/config/load';
import type { StdioServerConfig } from '../../../src/services/config/schema';
import { runConversation, type ConversationInput } from '../../../src/services/conversation/index';
import { buildRequestMessages } from '../../../src/services/conversation/context';
import type { ApprovalAnswer, ApprovalRequest, CommandAnswer, ConversationEvent, Message, ProposedCommand } from '../../../src/services/conversation/types';
import { createMcpManager } from '../../../src/services/mcp/client';
import type { McpManagerService } from '../../../src/services/mcp/types';
import { buildToolIndex } from '../../../src/services/tools/names';
import { createApprovalPolicy, type ApprovalPolicy, type PolicyOptions } from '../../../src/services/tools/policy';

const require = createRequire(import.meta.url);

/** server-everything over stdio, started from node_modules with the current node. */
export function everythingServer(): StdioServerConfig {
  return { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
}

export async function testConfig(brokerUrl: string, overrides: (config: AppConfig) => void = () => {}): Promise<AppConfig> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'aish-conv-'));
  const config = await loadConfig({ cli: { baseUrl: brokerUrl, model: 'scripted' }, env: { HOME: home }, cwd: home });
  overrides(config);
  return config;
}

export async function startMcp(config: AppConfig, servers: Record<string, StdioServerConfig> = {}, builtin = true): Promise<McpManagerService> {
  const mcp = createMcpManager({ stateDir: config.paths.stateDir, clientVersion: 'test', builtin, env: process.env });
  mcp.connectAll(servers);
  const snapshots = await mcp.settled();
  for (const snapshot of snapshots) if (snapshot.state !== 'ready') throw new Error(`${snapshot.alias}: ${snapshot.state} ${snapshot.error ?? ''}`);
  return mcp;
}

export interface RunResult {
  events: ConversationEvent[];
  messages: Message[];
  approvals: ApprovalRequest[];
  proposals: ProposedCommand[];
}

export interface RunOptions {
  config: AppConfig;
  mcp: McpManagerService;
  history?: Message[];
  text: string;
  approve?: (request: ApprovalRequest) => Promise<ApprovalAnswer> | ApprovalAnswer;
  confirmCommand?: (command: ProposedCommand) => Promise<CommandAnswer> | CommandAnswer;
  policy?: ApprovalPolicy;
  policyOptions?: PolicyOptions;
  signal?: AbortSignal;
  maxToolDepth?: number;
  /** Called with each event as it arrives (e.g. to abort at a chosen moment). */
  onEvent?: (event: ConversationEvent) => void;
  callTool?: McpManagerService['callTool'];
}

export async function run(options: RunOptions): Promise<RunResult> {
  const approvals: ApprovalRequest[] = [];
  const proposals: ProposedCommand[] = [];
  const events: ConversationEvent[] = [];
  const input: ConversationInput = {
    signal: options.signal ?? new AbortController().signal,
    history: options.history ?? [],
    text: options.text,
    model: options.config.models[options.config.defaultModel]!,
    approve: async (request) => {
      approvals.push(request);
      return (await options.approve?.(request)) ?? { action: 'deny' };
    },
    confirmCommand: async (command) => {
      proposals.push(command);
      return (await options.confirmCommand?.(command)) ?? { action: 'skip' };
    },
    deps: {
      streamChat,
      mcp: {
        servers: () => options.mcp.servers(),
        callTool: options.callTool ?? ((...args) => options.mcp.callTool(...args)),
        argumentProblem: (...args) => options.mcp.argumentProblem?.(...args),
      },
      buildToolIndex: (servers) => buildToolIndex(servers),
      policy: options.policy ?? createApprovalPolicy(options.policyOptions ?? { autoApprove: options.config.mcp.autoApprove }),
      config: options.config,
    },
    ...(options.maxToolDepth !== undefined ? { maxToolDepth: options.maxToolDepth } : {}),
  };
  for await (const event of runConversation(input)) {
    events.push(event);
    options.onEvent?.(event);
  }
  const messages = [...(options.history ?? []), ...events.flatMap((event) => (event.type === 'message' ? [event.message] : []))];
  return { events, messages, approvals, proposals };
}

/** The history is fit to send: every call answered, roles alternate (checked as the next request would be). */
export function assertValidHistory(messages: Message[], config: AppConfig): void {
  const next: Message[] = [...messages, { id: 'probe', role: 'user', content: 'next', at: new Date().toISOString() }];
  buildRequestMessages(next, { systemPrompt: config.systemPrompt, useToolRole: config.context.useToolRole, maxToolResultChars: config.context.maxToolResultChars });
}

export function toolMessages(messages: Message[]): Array<Extract<Message, { role: 'tool' }>> {
  return messages.filter((message): message is Extract<Message, { role: 'tool' }> => message.role === 'tool');
}

export function eventTypes(events: ConversationEvent[]): string[] {
  return events.map((event) => event.type);
}
