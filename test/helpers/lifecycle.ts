/**
 * The set-up and tear-down that test files talking to the scripted broker share, registered as
 * vitest hooks by one call at the top of a file:
 *
 * ```ts
 * const { broker, track } = useBrokerAndTerminals();   // one broker for the file
 * it('…', async () => {
 *   broker.route(…);
 *   const term = track(startApp({ broker }));        // disposed after this test
 * });
 * ```
 *
 * The broker returned is a stand-in for the one the hooks start: it can be taken at module level
 * (before any hook ran) and always reaches the broker that is live when it is used.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startScriptedBroker, type ScriptedBroker, type ScriptedBrokerOptions } from './scripted-broker';

/** Something a test starts and that must be gone before the next test: a terminal session, a server. */
export type Disposable = { dispose(): Promise<void> } | { close(): Promise<void> };

/** The broker the hooks started, while it runs; closing it twice is harmless. */
class BrokerSlot {
  private live: ScriptedBroker | undefined;

  async start(options: ScriptedBrokerOptions): Promise<void> {
    this.live = await startScriptedBroker(options);
  }

  get(): ScriptedBroker {
    if (!this.live) throw new Error('the scripted broker is not running: it starts in a beforeAll/beforeEach hook and stops once closed');
    return this.live;
  }

  /** Clears the router between tests, when a broker runs. */
  resetRoute(): void {
    this.live?.route(undefined);
  }

  async close(): Promise<void> {
    const broker = this.live;
    this.live = undefined;
    await broker?.close();
  }

  /** A ScriptedBroker that forwards every use to the broker running at that moment. */
  view(): ScriptedBroker {
    const slot = this;
    return {
      get url() {
        return slot.get().url;
      },
      get port() {
        return slot.get().port;
      },
      get requests() {
        return slot.get().requests;
      },
      get probes() {
        return slot.get().probes;
      },
      enqueue: (...responses) => slot.get().enqueue(...responses),
      route: (router) => slot.get().route(router),
      models: (answer) => slot.get().models(answer),
      serve: (method, path, answer) => slot.get().serve(method, path, answer),
      waitForRequests: (count, timeoutMs) => slot.get().waitForRequests(count, timeoutMs),
      // A test may close the broker itself (to talk to a port nobody listens on); the hooks then skip it.
      close: () => slot.close(),
    };
  }
}

/**
 * One scripted broker for the whole file: started before the first test, closed after the last.
 * After each test its router is cleared, so a route set by one test never answers the next.
 */
export function useScriptedBroker(options: ScriptedBrokerOptions = {}): ScriptedBroker {
  const slot = new BrokerSlot();
  beforeAll(() => slot.start(options));
  afterAll(() => slot.close());
  afterEach(() => slot.resetRoute());
  return slot.view();
}

/** A fresh scripted broker for every test (nothing queued, no requests recorded), closed after it. */
export function useScriptedBrokerPerTest(options: ScriptedBrokerOptions = {}): ScriptedBroker {
  const slot = new BrokerSlot();
  beforeEach(() => slot.start(options));
  afterEach(() => slot.close());
  return slot.view();
}

/**
 * Returns `track`: whatever a test passes to it is disposed (or closed) after that test, the last
 * tracked first, even when the test failed half-way.
 */
export function disposeAfterEach(): <T extends Disposable>(resource: T) => T {
  const tracked: Disposable[] = [];
  afterEach(async () => {
    for (const resource of tracked.splice(0).reverse()) {
      await ('dispose' in resource ? resource.dispose() : resource.close());
    }
  });
  return (resource) => {
    tracked.push(resource);
    return resource;
  };
}

/** The usual pair for tests of the built binary: one broker for the file, sessions disposed after each test. */
export function useBrokerAndTerminals(options: ScriptedBrokerOptions = {}): { broker: ScriptedBroker; track: <T extends Disposable>(resource: T) => T } {
  return { broker: useScriptedBroker(options), track: disposeAfterEach() };
}
