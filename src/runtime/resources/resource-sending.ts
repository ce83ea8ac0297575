// Sending a message that names MCP resources (`@alias:uri`): the resources are read first, then
// the message is queued with them attached, in the order messages were sent (a message without
// resources waits behind one still being read). A resource that cannot be read keeps the message
// back (it returns to an empty input) with a line saying why. Attached resources are subscribed
// when the server takes subscriptions, and a change is reported once.
import { once } from 'node:events';
import type { Attachment } from '../../services/conversation/types';
import type { McpManagerService } from '../../services/mcp/index';
import type { AppStore } from '../../state/store';
import { createFileCompletion } from '../attachments/file-completion';
import type { CompletionSource } from '../completion';
import type { Job } from '../turns';
import { findResourceReferences, readResourceAttachments, referenceProblem } from './resource-attach';
import { createResourceIndex, mergeCompletions, type ResourceIndex } from './resource-index';

/** How long a message naming a server that is still connecting waits for it. */
const CONNECT_WAIT_MS = 30_000;

export interface ResourceSendingDeps {
  mcp: McpManagerService;
  cwd: string;
  store: AppStore;
  status: (level: 'info' | 'warn' | 'error', text: string) => void;
  enqueue: (job: Job) => void;
}

export interface ResourceSending {
  index: ResourceIndex;
  /** `@` completion: the files here and the servers' resources. */
  completion: CompletionSource;
  /** Why the message cannot go as typed (a template parameter left in), checked before it leaves the input. */
  precheck(text: string): string | undefined;
  send(text: string, attachments: Attachment[]): void;
  /**
   * Esc: the messages still waiting for their resources (or behind one that is) are not sent; their
   * texts, in the order they were sent. Nothing has run for them yet.
   */
  cancel(): string[];
  close(): void;
}

export function createResourceSending({ mcp, cwd, store, status, enqueue }: ResourceSendingDeps): ResourceSending {
  const index: ResourceIndex = createResourceIndex(
    mcp,
    (alias, uri) => status('info', `mcp ${alias}: ${uri} changed since it was attached; mention @${alias}:${uri} again to send the new text`),
    // The sidebar lists each server's resources under its tools.
    (alias) => {
      const catalog = index.catalogs().find((one) => one.alias === alias);
      const changed = index.updated();
      store.getState().setResources(
        alias,
        catalog && [
          ...catalog.resources.map((resource) => ({ uri: resource.uri, name: resource.title ?? resource.name, ...(changed.has(`${alias}:${resource.uri}`) ? { changed: true } : {}) })),
          // Templates after the resources, marked with their parameters (Enter puts one into the input).
          ...catalog.templates.map((template) => ({ uri: template.uriTemplate, name: template.title ?? template.name, parameters: template.variables })),
        ],
      );
    },
  );
  const aliases = () => mcp.servers().map((snapshot) => snapshot.alias);
  let chain: Promise<void> = Promise.resolve();
  /** Messages not queued yet, in the order they were sent; each can be called off until it is. */
  const waiting: Array<{ text: string; stop: AbortController }> = [];
  const queue = (text: string, attachments: Attachment[]) => enqueue({ kind: 'chat', text, ...(attachments.length > 0 ? { attachments } : {}) });

  return {
    index,
    completion: mergeCompletions(createFileCompletion(cwd), index.completion),
    precheck: (text) => findResourceReferences(text, aliases()).map(referenceProblem).find(Boolean),
    send(text, attachments) {
      const references = findResourceReferences(text, aliases());
      if (references.length === 0 && waiting.length === 0) return queue(text, attachments);
      const entry = { text, stop: new AbortController() };
      const { signal } = entry.stop;
      waiting.push(entry);
      chain = chain
        .then(async () => {
          if (signal.aborted) return;
          // A message sent while its server is still starting waits for it rather than failing.
          const starting = [...new Set(references.map((reference) => reference.alias))].filter((alias) => mcp.servers().some((server) => server.alias === alias && server.state === 'connecting'));
          if (starting.length > 0) {
            status('info', `waiting for ${starting.join(', ')} to connect to read what the message names (Esc takes it back)`);
            await Promise.race([mcp.settled(CONNECT_WAIT_MS), once(signal, 'abort')]);
          }
          if (signal.aborted) return;
          const read = await readResourceAttachments(mcp, references, signal);
          if (signal.aborted) return;
          if (read.problems.length > 0) {
            status('warn', `not sent: ${read.problems.join('; ')}`);
            if (store.getState().editor.text.length === 0) store.getState().setDraft(text);
            return;
          }
          queue(text, [...attachments, ...read.attachments]);
          for (const reference of references) {
            index.markRead(reference.alias, reference.uri);
            void mcp.subscribeResource?.(reference.alias, reference.uri);
          }
        })
        .catch((error: unknown) => {
          if (!signal.aborted) status('error', `not sent: ${(error as Error).message}`);
        })
        .finally(() => {
          const at = waiting.indexOf(entry);
          if (at !== -1) waiting.splice(at, 1);
        });
    },
    cancel() {
      const called = waiting.splice(0);
      for (const entry of called) entry.stop.abort();
      return called.map((entry) => entry.text);
    },
    close: () => index.close(),
  };
}
