// Resources and prompts (services/mcp/resources.ts, prompts.ts, catalog.ts). Raw, unsanitized texts:
// whoever shows them sanitizes at display time.

/** A resource a server lists (`resources/list`). */
export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A resource template (`resources/templates/list`): `variables` are the names in its URI template. */
export interface McpResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  variables: string[];
}

/** One server's resources and templates as listed now, or why they could not be listed. */
export interface ResourceCatalog {
  alias: string;
  resources: McpResourceInfo[];
  templates: McpResourceTemplateInfo[];
  /** The server takes `resources/subscribe`. */
  subscribable: boolean;
  error?: string;
}

/** One part of a read resource: text (cut at the limit) or binary (type and size only). */
export type ResourcePart =
  | { uri: string; mimeType?: string; kind: 'text'; text: string; bytes: number; truncated: boolean }
  | { uri: string; mimeType?: string; kind: 'binary'; bytes: number };

/** `resources/read` of one URI: its parts, or one line saying why not. */
export type ResourceReadResult = { ok: true; alias: string; uri: string; parts: ResourcePart[] } | { ok: false; alias: string; uri: string; error: string };

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPromptInfo {
  alias: string;
  name: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
}

/** One message of a prompt's result: text, an embedded resource as its text, other content as a placeholder line. */
export interface PromptMessageView {
  role: 'user' | 'assistant';
  text: string;
  /** URIs of embedded resources and resource links in this message. */
  resources: string[];
}

export type PromptResult = { ok: true; description?: string; messages: PromptMessageView[] } | { ok: false; error: string };

/** What a catalog change means for the UI: lists to fetch again, or a subscribed resource that changed. */
export type CatalogEvent = { type: 'catalog-changed'; alias: string; what: 'resources' | 'prompts' } | { type: 'resource-updated'; alias: string; uri: string };

/** Resources and prompts of the connected servers (catalog.ts). Never rejects: failures are values. */
export interface McpCatalogService {
  resourceCatalog(alias: string, options?: { refresh?: boolean }): Promise<ResourceCatalog>;
  readResource(alias: string, uri: string, options?: { maxChars?: number; signal?: AbortSignal }): Promise<ResourceReadResult>;
  /** Subscribes to a resource's changes when the server takes subscriptions; says whether it did. */
  subscribeResource(alias: string, uri: string): Promise<boolean>;
  listPrompts(alias: string, options?: { refresh?: boolean }): Promise<{ prompts: McpPromptInfo[]; error?: string }>;
  getPrompt(alias: string, name: string, args: Record<string, string>, options?: { maxChars?: number; signal?: AbortSignal }): Promise<PromptResult>;
  /** `completion/complete` suggestions for an argument of a prompt or a resource template (empty when the server offers none). */
  completeArgument(alias: string, ref: { type: 'prompt'; name: string } | { type: 'template'; uri: string }, argument: string, value: string, context?: Record<string, string>): Promise<string[]>;
  onCatalogEvent(listener: (event: CatalogEvent) => void): () => void;
}
