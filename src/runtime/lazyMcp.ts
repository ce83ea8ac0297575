import type { ServerConfig } from '../services/config/schema';
import type { CallToolOptions, CatalogEvent, McpEvent, McpManagerService, ServerSnapshot, ToolCallOutcome } from '../services/mcp/index';

/**
 * The MCP manager, loaded when it is first needed rather than before the first frame: the MCP
 * client and the built-in server are most of the app's code (some 1.8 MB), and the servers only
 * start after the first frame anyway. Until it has loaded there are no servers; listeners
 * subscribed before are attached to it when it arrives.
 */
export function lazyMcpManager(load: () => Promise<McpManagerService>): McpManagerService {
  let manager: McpManagerService | undefined;
  let loading: Promise<McpManagerService> | undefined;
  const listeners = new Set<(event: McpEvent) => void>();
  const forward = (event: McpEvent) => {
    for (const listener of [...listeners]) listener(event);
  };
  const catalogListeners = new Set<(event: CatalogEvent) => void>();

  let pendingRoots: string[] | undefined;
  const ready = (): Promise<McpManagerService> => {
    loading ??= load().then((loaded) => {
      manager = loaded;
      if (pendingRoots) loaded.setRoots?.(pendingRoots);
      loaded.subscribe(forward);
      loaded.onCatalogEvent?.((event) => {
        for (const listener of [...catalogListeners]) listener(event);
      });
      return loaded;
    });
    return loading;
  };

  return {
    servers: (): ServerSnapshot[] => manager?.servers() ?? [],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connect: async (alias: string, config: ServerConfig) => (await ready()).connect(alias, config),
    connectAll(servers: Record<string, ServerConfig>) {
      ready().then(
        (loaded) => loaded.connectAll(servers),
        (error: unknown) => forward({ type: 'status', alias: 'mcp', level: 'error', message: `MCP is unavailable: ${(error as Error).message}` }),
      );
    },
    reconnect: async (alias: string) => (await ready()).reconnect(alias),
    disconnect: async (alias: string) => (await ready()).disconnect(alias),
    openSignIn: async (alias: string) => (await ready()).openSignIn(alias),
    callTool: async (alias: string, tool: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<ToolCallOutcome> => (await ready()).callTool(alias, tool, args, options),
    // Before the manager has loaded there are no servers, so no tool whose arguments could be checked.
    argumentProblem: (alias: string, tool: string, args: Record<string, unknown>) => manager?.argumentProblem?.(alias, tool, args),
    connectUrl: async (url: string, alias?: string) => (await ready()).connectUrl(url, alias),
    remove: async (alias: string) => (await ready()).remove(alias),
    // Once loading has begun (connectAll, connect), "settled" means the servers it started have.
    async settled(timeoutMs?: number) {
      const loaded = manager ?? (loading ? await loading.catch(() => undefined) : undefined);
      return loaded ? loaded.settled(timeoutMs) : [];
    },
    // No task can run before the manager has loaded.
    moveTasksToBackground: () => manager?.moveTasksToBackground?.() ?? [],
    runningTasks: () => manager?.runningTasks?.() ?? [],
    cancelTask: (which) => manager?.cancelTask?.(which) ?? 'no MCP task is running',
    // Resources and prompts: before the manager has loaded there is no server to ask.
    resourceCatalog: async (alias, options) => (await ready()).resourceCatalog?.(alias, options) ?? { alias, resources: [], templates: [], subscribable: false },
    readResource: async (alias, uri, options) => (await ready()).readResource?.(alias, uri, options) ?? { ok: false, alias, uri, error: 'resources are not available here' },
    subscribeResource: async (alias, uri) => (await ready()).subscribeResource?.(alias, uri) ?? false,
    listPrompts: async (alias, options) => (await ready()).listPrompts?.(alias, options) ?? { prompts: [] },
    getPrompt: async (alias, name, args, options) => (await ready()).getPrompt?.(alias, name, args, options) ?? { ok: false, error: 'prompts are not available here' },
    completeArgument: async (alias, ref, argument, value, context) => (await ready()).completeArgument?.(alias, ref, argument, value, context) ?? [],
    onCatalogEvent(listener) {
      catalogListeners.add(listener);
      return () => catalogListeners.delete(listener);
    },
    roots: () => manager?.roots?.() ?? pendingRoots ?? [],
    setRoots(directories: string[]) {
      // Before the manager loads, the roots wait and are handed over when it arrives.
      if (manager) manager.setRoots?.(directories);
      else pendingRoots = [...directories];
    },
    async close() {
      // Nothing to close when it never loaded; when it is loading, close it once it has.
      if (!loading) return;
      const loaded = await loading.catch(() => undefined);
      await loaded?.close();
    },
  };
}
