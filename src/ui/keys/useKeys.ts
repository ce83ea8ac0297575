import { useEffect, useRef } from 'react';
import { useUiEnv } from '../StoreContext';
import type { KeyHandler } from '../../terminal/keyboard/keyInput';

/**
 * Registers a key handler for as long as the component is mounted (and `active`). The handler may
 * change every render; the registration stays, so no key is lost between renders.
 */
export function useKeys(handler: KeyHandler, priority: number, active = true): void {
  const { keys } = useUiEnv();
  const current = useRef(handler);
  current.current = handler;
  useEffect(() => {
    if (!active) return;
    return keys.subscribe((key) => current.current(key), priority);
  }, [keys, priority, active]);
}
