// The MCP event bridge (TUI): the manager's events become store state (the sidebar's servers and
// tools) and status lines, and the sidebar's server actions (r, d, c and `:mcp connect`) become
// manager calls whose failures are status lines rather than unhandled rejections. `-p` and
// `aish-tui mcp …` print the same events on stderr instead.
import { McpInputError, type McpManagerService } from '../services/mcp/index';
import type { AppStore } from '../state/store';
import { onElicitationComplete } from './elicitation';

type Status = (level: 'info' | 'warn' | 'error', text: string) => void;

/** Forwards every MCP event to the store until the returned function is called. */
export function bridgeMcpEvents(mcp: Pick<McpManagerService, 'subscribe'>, store: AppStore): () => void {
  return mcp.subscribe((event) => {
    store.getState().applyMcpEvent(event);
    if (event.type === 'status') store.getState().addStatus(event.level, event.message);
    if (event.type === 'elicitation-complete') onElicitationComplete(store, (level, text) => store.getState().addStatus(level, text), event);
  });
}

export interface ServerActions {
  reconnectServer(alias: string): void;
  disconnectServer(alias: string): void;
  /** Sidebar `o`: open the server's pending sign-in address in the browser. */
  openSignIn(alias: string): void;
  /** Without an alias the manager picks one from the URL. */
  connectServer(url: string, alias?: string): void;
}

export function serverActions(mcp: McpManagerService, status: Status): ServerActions {
  // A bad request (a malformed URL or alias) is said as is; anything else names what failed.
  const report = (promise: Promise<unknown>, what: string) =>
    promise.catch((error: unknown) => status('error', error instanceof McpInputError ? error.message : `${what}: ${(error as Error).message}`));
  return {
    reconnectServer(alias) {
      void report(mcp.reconnect(alias), `mcp ${alias}`);
    },
    disconnectServer(alias) {
      void report(mcp.disconnect(alias), `mcp ${alias}`);
    },
    openSignIn(alias) {
      void report(
        mcp.openSignIn(alias).then((line) => status('info', line)),
        `mcp ${alias}`,
      );
    },
    connectServer(url, alias) {
      void report(
        mcp.connectUrl(url, alias).then((snapshot) => {
          // A failure is reported by the server's own status event; waiting for authorization is not.
          if (snapshot.state === 'needs-auth') status('warn', `mcp ${snapshot.alias}: ${snapshot.state}${snapshot.error ? `: ${snapshot.error}` : ''}`);
        }),
        'mcp connect',
      );
    },
  };
}
