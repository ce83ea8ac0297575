import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from '../state/store';
import type { AppController } from './controller';

const StoreContext = createContext<AppStore | null>(null);
const ControllerContext = createContext<AppController | null>(null);

export function AppProviders({ store, controller, children }: { store: AppStore; controller: AppController; children: ReactNode }) {
  return (
    <StoreContext.Provider value={store}>
      <ControllerContext.Provider value={controller}>{children}</ControllerContext.Provider>
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
