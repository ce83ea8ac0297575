import type { ModelEntry } from './schema';

/**
 * The registry a user gets with no config file: the two local servers people run most, plus the
 * cloud providers whose key is present in the environment (a cloud entry without a key would
 * only produce a 401 later).
 */
export function builtInModels(env: NodeJS.ProcessEnv): Record<string, ModelEntry> {
  const models: Record<string, ModelEntry> = {
    // llama-server's default port; it serves whatever model it loaded, whatever name we send.
    local: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'local' },
    ollama: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' },
  };
  if (env.OPENROUTER_API_KEY) {
    models.cloud = { baseUrl: 'https://openrouter.ai/api/v1', model: 'openrouter/auto', keyEnv: 'OPENROUTER_API_KEY' };
  }
  if (env.OPENAI_API_KEY) {
    models.openai = { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', keyEnv: 'OPENAI_API_KEY' };
  }
  return models;
}

export const DEFAULT_SYSTEM_PROMPT = [
  'You are aish, an assistant in the user\'s terminal.',
  'You may have access to tools from MCP servers; they appear in this request\'s `tools` field.',
  'Call a tool by emitting a tool call; its result arrives in the next turn.',
  'To propose a local shell command, put it alone on a line as `CMD: <command>`;',
  'the user confirms it before it runs and its output reaches you in the next turn.',
  'Prefer tools for structured operations and `CMD:` for anything not exposed as a tool.',
].join('\n');
