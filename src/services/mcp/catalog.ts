// Resources and prompts of the connected servers, for the manager (McpCatalogService in types.ts).
// Failures become values with one line for the user; server texts stay raw, secrets redacted.
import type { Client } from '@modelcontextprotocol/client';
import { describeError } from './errors';
import { completeValue, listPromptInfos, promptMessages } from './prompts';
import { listResourceCatalog, resourceParts } from './resources';
import type { ServerSession } from './session';
import type { CatalogEvent, McpCatalogService, McpPromptInfo, PromptResult, ResourceCatalog, ResourceReadResult } from './types';

/** Text kept of one read or one prompt unless the caller asks for less (what an attachment may carry). */
export const DEFAULT_MAX_CHARS = 256 * 1024;
const REQUEST_TIMEOUT_MS = 15_000;

type SessionLookup = (alias: string) => ServerSession | undefined;

function readyClient(session: ServerSession | undefined, alias: string): { client: Client; session: ServerSession } | { error: string } {
  if (!session) return { error: `no MCP server named ${JSON.stringify(alias)}` };
  const client = session.connection?.client;
  if (!client || session.snapshot.state !== 'ready') return { error: `${alias} is not connected (${session.snapshot.state})` };
  return { client, session };
}

/**
 * Tells `listener` when a server's resource or prompt list changed and when a subscribed resource
 * was updated. Installed on each new client before it connects (manager.ts `prepareClient`).
 */
export function watchCatalog(client: Client, alias: string, emit: (event: CatalogEvent) => void): void {
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    const uri = notification.params?.uri;
    if (typeof uri === 'string') emit({ type: 'resource-updated', alias, uri: uri.slice(0, 8192) });
  });
  client.setNotificationHandler('notifications/resources/list_changed', () => emit({ type: 'catalog-changed', alias, what: 'resources' }));
  client.setNotificationHandler('notifications/prompts/list_changed', () => emit({ type: 'catalog-changed', alias, what: 'prompts' }));
}

export class McpCatalog implements McpCatalogService {
  private readonly listeners = new Set<(event: CatalogEvent) => void>();
  /** Subscriptions made per server (`alias\0uri`), so one resource is subscribed once. */
  private readonly subscribed = new Set<string>();

  constructor(private readonly lookup: SessionLookup) {}

  emit = (event: CatalogEvent): void => {
    // A change invalidates what the SDK's cache holds: the next list asks the server.
    if (event.type === 'catalog-changed') this.stale.add(`${event.alias}\u0000${event.what}`);
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // One failing listener must not keep the others from hearing.
      }
    }
  };

  private readonly stale = new Set<string>();

  private takeStale(alias: string, what: 'resources' | 'prompts'): boolean {
    return this.stale.delete(`${alias}\u0000${what}`);
  }

  /** A new connection starts with no subscriptions. */
  forget(alias: string): void {
    for (const key of [...this.subscribed]) if (key.startsWith(`${alias}\u0000`)) this.subscribed.delete(key);
  }

  onCatalogEvent(listener: (event: CatalogEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async resourceCatalog(alias: string, options: { refresh?: boolean } = {}): Promise<ResourceCatalog> {
    const found = readyClient(this.lookup(alias), alias);
    if ('error' in found) return { alias, resources: [], templates: [], subscribable: false, error: found.error };
    const capability = found.client.getServerCapabilities()?.resources;
    if (!capability) return { alias, resources: [], templates: [], subscribable: false };
    const refresh = this.takeStale(alias, 'resources') || options.refresh === true;
    try {
      const listed = await listResourceCatalog(found.client, { refresh, timeoutMs: REQUEST_TIMEOUT_MS });
      return { alias, ...listed, subscribable: capability.subscribe === true };
    } catch (error) {
      return { alias, resources: [], templates: [], subscribable: false, error: found.session.redact(`listing resources failed: ${describeError(error)}`) };
    }
  }

  async readResource(alias: string, uri: string, options: { maxChars?: number; signal?: AbortSignal } = {}): Promise<ResourceReadResult> {
    const found = readyClient(this.lookup(alias), alias);
    if ('error' in found) return { ok: false, alias, uri, error: found.error };
    try {
      const result = await found.client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) });
      const parts = resourceParts(result.contents, options.maxChars ?? DEFAULT_MAX_CHARS).map((part) => (part.kind === 'text' ? { ...part, text: found.session.redact(part.text) } : part));
      return { ok: true, alias, uri, parts };
    } catch (error) {
      return { ok: false, alias, uri, error: found.session.redact(describeError(error)) };
    }
  }

  async subscribeResource(alias: string, uri: string): Promise<boolean> {
    const found = readyClient(this.lookup(alias), alias);
    if ('error' in found || found.client.getServerCapabilities()?.resources?.subscribe !== true) return false;
    const key = `${alias}\u0000${uri}`;
    if (this.subscribed.has(key)) return true;
    try {
      await found.client.subscribeResource({ uri }, { timeout: REQUEST_TIMEOUT_MS });
      this.subscribed.add(key);
      return true;
    } catch {
      return false;
    }
  }

  async listPrompts(alias: string, options: { refresh?: boolean } = {}): Promise<{ prompts: McpPromptInfo[]; error?: string }> {
    const found = readyClient(this.lookup(alias), alias);
    if ('error' in found) return { prompts: [], error: found.error };
    if (!found.client.getServerCapabilities()?.prompts) return { prompts: [] };
    const refresh = this.takeStale(alias, 'prompts') || options.refresh === true;
    try {
      return { prompts: await listPromptInfos(found.client, alias, { refresh, timeoutMs: REQUEST_TIMEOUT_MS }) };
    } catch (error) {
      return { prompts: [], error: found.session.redact(`listing prompts failed: ${describeError(error)}`) };
    }
  }

  async getPrompt(alias: string, name: string, args: Record<string, string>, options: { maxChars?: number; signal?: AbortSignal } = {}): Promise<PromptResult> {
    const found = readyClient(this.lookup(alias), alias);
    if ('error' in found) return { ok: false, error: found.error };
    try {
      const result = await found.client.getPrompt({ name, arguments: args }, { timeout: REQUEST_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) });
      const messages = promptMessages(result.messages, options.maxChars ?? DEFAULT_MAX_CHARS).map((message) => ({ ...message, text: found.session.redact(message.text) }));
      const description = typeof result.description === 'string' ? result.description.slice(0, 2000) : undefined;
      return { ok: true, messages, ...(description ? { description } : {}) };
    } catch (error) {
      return { ok: false, error: found.session.redact(describeError(error)) };
    }
  }

  async completeArgument(alias: string, ref: { type: 'prompt'; name: string } | { type: 'template'; uri: string }, argument: string, value: string, context?: Record<string, string>): Promise<string[]> {
    const found = readyClient(this.lookup(alias), alias);
    if ('error' in found) return [];
    try {
      return await completeValue(found.client, ref, argument, value, context, REQUEST_TIMEOUT_MS);
    } catch {
      // Suggestions are a help, never a reason to stop: without them the user types the value.
      return [];
    }
  }
}
