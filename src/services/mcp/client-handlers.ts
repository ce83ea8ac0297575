import type { Client } from '@modelcontextprotocol/client';
import type { ResolvedMcpOptions } from './options';
import { installSampling } from './sampling';
import { applyLogLevel, DEFAULT_LOG_LEVEL, installLogging, ServerLog } from './server-log';
import type { SessionView } from './session-view';
import type { ServerLogLevel } from './types';
import type { UserWaits } from './user-waits';

// What a session's client answers or collects of its own accord: installed on every new client
// before it connects (a server may log or ask during initialize), and the log level asked for
// once the server is ready. The log is kept across reconnects (bounded).

export class ClientHandlers {
  private readonly log: ServerLog;

  constructor(
    private readonly alias: string,
    private readonly options: ResolvedMcpOptions,
    private readonly view: Pick<SessionView, 'update' | 'status' | 'redact'>,
    private readonly logLevel: () => ServerLogLevel | undefined,
    private readonly userWaits: UserWaits,
  ) {
    this.log = new ServerLog(alias, { entries: (log) => view.update({ log }), status: (level, message) => view.status(level, message), redact: (text) => view.redact(text) });
  }

  /** `current` is false once this connect attempt was superseded: its late requests are refused. */
  prepare(client: Client, current: () => boolean): void {
    installLogging(client, this.log);
    const sampling = this.options.sampling;
    if (!sampling) return;
    installSampling(client, this.alias, (request, signal) =>
      current() ? this.userWaits.during(() => sampling(request, signal)) : Promise.resolve({ action: 'deny', reason: 'the connection this request came on was replaced', code: -32603 }),
    );
  }

  /** The server is ready: ask it for the configured log level (if it declares logging). */
  ready(client: Client, current: () => boolean): void {
    void applyLogLevel(client, this.logLevel() ?? DEFAULT_LOG_LEVEL).then((problem) => {
      if (problem && current()) this.view.status('warn', `mcp ${this.alias}: ${problem}`);
    });
  }
}
