import type { Client } from '@modelcontextprotocol/client';
import type { ResolvedMcpOptions } from './options';
import { installSampling } from './sampling';
import { installLogging, type ServerLog } from './server-log';

// What the client answers or collects of its own accord, installed on every new client of a
// session before it connects (a server may log or ask during initialize).

export interface ClientHandlerContext {
  alias: string;
  options: ResolvedMcpOptions;
  log: ServerLog;
  /** False once this connect attempt was superseded: its late requests are refused. */
  current: () => boolean;
}

export function prepareClient(client: Client, context: ClientHandlerContext): void {
  installLogging(client, context.log);
  const sampling = context.options.sampling;
  if (sampling) {
    installSampling(client, context.alias, (request, signal) =>
      context.current() ? sampling(request, signal) : Promise.resolve({ action: 'deny', reason: 'the connection this request came on was replaced', code: -32603 }),
    );
  }
}
