import type { AppConfig } from '../services/config/load';
import type { AppStore } from '../state/store';
import type { Runtime } from './runtime';

// What the status bar and the sidebar measure between turns: the context meter (what the history
// and the tool definitions take now) and each tool's cost and switch. Both follow the servers, the
// model's window, the switches and the conversation.

export interface MeterWatch {
  /** The context meter measured again (not while `paused`). */
  refreshMeter(): void;
  /** The sidebar's costs and switches published again. */
  publishTools(): void;
  stop(): void;
}

export function watchMeters(options: {
  runtime: Pick<Runtime, 'mcp' | 'onWindow' | 'measureContext' | 'tools'>;
  store: AppStore;
  config: AppConfig;
  modelName: () => string;
  /** True while a turn runs (its own events set the meter) or once the session is closed. */
  paused: () => boolean;
}): MeterWatch {
  const { runtime, store, config, modelName, paused } = options;
  const { mcp } = runtime;
  const refreshMeter = () => {
    if (paused()) return;
    store.getState().setContext(runtime.measureContext(modelName(), store.getState().messages));
  };
  // Tool definitions count too: the meter follows servers connecting and changing their tools.
  let meterQueued = false;
  const stopToolWatch = mcp.subscribe((event) => {
    if (event.type === 'status' || meterQueued) return;
    meterQueued = true;
    queueMicrotask(() => {
      meterQueued = false;
      refreshMeter();
    });
  });
  const stopWindows = runtime.onWindow((name, window) => {
    store.getState().setContextWindow(name, window);
    if (name === modelName()) refreshMeter();
  });
  // The sidebar's costs and switches follow the servers, the switches, the model and the tools the
  // conversation found (its searches add tools to the next request).
  const publishTools = () => {
    const model = config.models[modelName()];
    if (model) store.getState().setToolBudget(runtime.tools.view(mcp.servers(), model, store.getState().messages));
  };
  const stopToolEvents = mcp.subscribe((event) => {
    if (event.type !== 'status') publishTools();
  });
  const stopSwitchEvents = runtime.tools.switches.subscribe(publishTools);
  return {
    refreshMeter,
    publishTools,
    stop() {
      stopWindows();
      stopToolWatch();
      stopToolEvents();
      stopSwitchEvents();
    },
  };
}
