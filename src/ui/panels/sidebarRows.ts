import type { ServerSnapshot } from '../../services/mcp/types';
import type { SidebarResource } from '../../state/types';

// The sidebar's rows as ↑/↓ move through them: one per server, and its tools and resources under
// it while it is expanded. The panel draws them (Sidebar.tsx); the container moves the selection.

/** A selectable row: a server, or one of its tools when the server is expanded. */
export interface SidebarRow {
  id: string;
  kind: 'server' | 'tool' | 'resource';
  alias: string;
  tool?: string;
  uri?: string;
}

export const serverRowId = (alias: string) => `s:${alias}`;
export const toolRowId = (alias: string, tool: string) => `t:${alias}:${tool}`;
export const resourceRowId = (alias: string, uri: string) => `r:${alias}:${uri}`;

/** No resources listed: one object, so the rows kept for a server list stay valid. */
export const NO_RESOURCES: Record<string, SidebarResource[]> = {};

/**
 * The last rows built per server list: the sidebar and its keys ask for them on every key and
 * every frame, and with 1,000 tools expanded building them anew is what a key press cost.
 */
const rowsCache = new WeakMap<readonly ServerSnapshot[], { expanded: readonly string[]; resources: Record<string, SidebarResource[]>; rows: SidebarRow[] }>();

/** The rows ↑/↓ move through, in order (the same array while the servers, resources and what is expanded stay). */
export function sidebarRows(servers: readonly ServerSnapshot[], expanded: readonly string[], resources: Record<string, SidebarResource[]> = NO_RESOURCES): SidebarRow[] {
  const cached = rowsCache.get(servers);
  if (cached?.expanded === expanded && cached.resources === resources) return cached.rows;
  const rows = buildSidebarRows(servers, expanded, resources);
  rowsCache.set(servers, { expanded, resources, rows });
  return rows;
}

function buildSidebarRows(servers: readonly ServerSnapshot[], expanded: readonly string[], resources: Record<string, SidebarResource[]>): SidebarRow[] {
  const rows: SidebarRow[] = [];
  for (const server of servers) {
    rows.push({ id: serverRowId(server.alias), kind: 'server', alias: server.alias });
    if (!expanded.includes(server.alias)) continue;
    for (const tool of server.tools) rows.push({ id: toolRowId(server.alias, tool.name), kind: 'tool', alias: server.alias, tool: tool.name });
    for (const resource of resources[server.alias] ?? []) rows.push({ id: resourceRowId(server.alias, resource.uri), kind: 'resource', alias: server.alias, uri: resource.uri });
  }
  return rows;
}

/** The selected row: the one chosen, or the first when none is (or the chosen one is gone). */
export function effectiveSelection(rows: readonly SidebarRow[], selected: string | undefined): string | undefined {
  return rows.some((row) => row.id === selected) ? selected : rows[0]?.id;
}
