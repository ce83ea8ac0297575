import { createContext, useContext, useMemo, useRef, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from '../state/store';
import type { AppController } from '../runtime/controller';
import type { CommandSpec, CompletionSource } from '../runtime/completion';
import { KeyInput } from '../terminal/keyboard/keyInput';
import { InputHistory } from '../runtime/inputHistory';
import type { TranscriptLayer } from '../transcript/layer';

/** What the UI needs from its surroundings beyond the store and the session. */
export interface UiEnv {
  keys: KeyInput;
  history: InputHistory;
  /** Draws the whole screen again (Ctrl+L). */
  redraw: () => void;
  /** Model names from the registry, for `:model <Tab>`. */
  modelNames: readonly string[];
  /** The `:` commands for Tab completion (the conversation layer's table when it has one). */
  commands?: readonly CommandSpec[];
  /** Saved session ids, newest first, for `:resume <Tab>` (read when Tab is pressed). */
  sessionIds?: () => readonly string[];
  /** Words completed anywhere in a message (`@path`); see runtime/completion.ts. */
  completionSources?: readonly CompletionSource[];
  /**
   * Ctrl+G: edits `text` in $VISUAL / $EDITOR with the terminal handed over (terminal/external-editor.ts).
   * Resolves with the saved text, or with why it did not work (the draft is then left as it was).
   */
  editExternally?: (text: string) => Promise<{ text: string } | { error: string }>;
  /** In the terminal: draws the transcript beside Ink (see transcript/layer.ts); absent, ChatView renders it. */
  transcriptLayer?: TranscriptLayer;
}

const StoreContext = createContext<AppStore | null>(null);
const ControllerContext = createContext<AppController | null>(null);
const EnvContext = createContext<UiEnv | null>(null);

export interface AppProvidersProps {
  store: AppStore;
  controller: AppController;
  /** Defaults: a key reader fed only by `env.keys.feed` (tests), an in-memory history. */
  env?: Partial<UiEnv>;
  children: ReactNode;
}

export function AppProviders({ store, controller, env, children }: AppProvidersProps) {
  const fallbackKeys = useRef<KeyInput | null>(null);
  const fallbackHistory = useRef<InputHistory | null>(null);
  const value = useMemo<UiEnv>(() => {
    fallbackKeys.current ??= new KeyInput({ on: () => undefined });
    fallbackHistory.current ??= new InputHistory(undefined);
    return {
      keys: env?.keys ?? fallbackKeys.current,
      history: env?.history ?? fallbackHistory.current,
      redraw: env?.redraw ?? (() => undefined),
      modelNames: env?.modelNames ?? [],
      ...(env?.commands ? { commands: env.commands } : {}),
      ...(env?.sessionIds ? { sessionIds: env.sessionIds } : {}),
      ...(env?.transcriptLayer ? { transcriptLayer: env.transcriptLayer } : {}),
      ...(env?.completionSources ? { completionSources: env.completionSources } : {}),
      ...(env?.editExternally ? { editExternally: env.editExternally } : {}),
    };
  }, [env?.keys, env?.history, env?.redraw, env?.modelNames, env?.commands, env?.sessionIds, env?.transcriptLayer, env?.completionSources, env?.editExternally]);
  return (
    <StoreContext.Provider value={store}>
      <ControllerContext.Provider value={controller}>
        <EnvContext.Provider value={value}>{children}</EnvContext.Provider>
      </ControllerContext.Provider>
    </StoreContext.Provider>
  );
}

export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStoreApi outside AppProviders');
  return store;
}

/** Subscribes to one selector; the component re-renders only when that value changes. */
export function useAppState<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

export function useController(): AppController {
  const controller = useContext(ControllerContext);
  if (!controller) throw new Error('useController outside AppProviders');
  return controller;
}

export function useUiEnv(): UiEnv {
  const env = useContext(EnvContext);
  if (!env) throw new Error('useUiEnv outside AppProviders');
  return env;
}
