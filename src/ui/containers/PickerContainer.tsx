import { memo } from 'react';
import type { AppStore } from '../../state/store';
import type { KeyEvent } from '../../terminal/keyboard/keys';
import { KeyPriority } from '../../terminal/keyboard/keyInput';
import type { Theme } from '../../terminal/theme';
import { applyEditorKey } from '../input/editor';
import { actionFor, runAction, type ActionHandlers, type KeyAction } from '../keys/keymap';
import { useKeys } from '../keys/useKeys';
import { filterPickerItems, Picker, pickerListRows } from '../panels/Picker';
import { useAppState, useAppStoreApi } from '../StoreContext';

function move(store: AppStore, by: number): boolean {
  const picker = store.getState().picker!;
  const count = filterPickerItems(picker.items, picker.filter.text).length;
  if (count === 0) return true;
  const next = Math.max(0, Math.min(count - 1, picker.selected + by));
  store.getState().updatePicker({ selected: next });
  return true;
}

interface PickerArgs {
  store: AppStore;
  /** List rows on screen: PgUp / PgDn move by this. */
  page: number;
}

export const PICKER_ACTIONS = {
  // Typed text is not the picker's: it passes to the filter's line editor (handlePickerKey).
  'picker.filter': () => false,
  'picker.up': ({ store }) => move(store, -1),
  'picker.down': ({ store }) => move(store, 1),
  'picker.pageUp': ({ store, page }) => move(store, -page),
  'picker.pageDown': ({ store, page }) => move(store, page),
  'picker.close': ({ store }) => {
    const picker = store.getState().picker!;
    store.getState().setPicker(undefined);
    picker.cancel?.();
    return true;
  },
  'picker.choose': ({ store }) => {
    const picker = store.getState().picker!;
    const shown = filterPickerItems(picker.items, picker.filter.text);
    const item = shown[Math.min(picker.selected, shown.length - 1)];
    if (!item) return true;
    // Closed first: what the choice does (resume, switch) may open another picker or draw a lot.
    store.getState().setPicker(undefined);
    picker.choose(item);
    return true;
  },
} satisfies ActionHandlers<KeyAction, [PickerArgs]>;

/** Keys while a picker is open: its own, then the line editor on the filter; nothing passes below it but Ctrl keys. */
export function handlePickerKey(store: AppStore, key: KeyEvent, page = 5): boolean {
  const picker = store.getState().picker;
  if (!picker) return false;
  if (runAction<KeyAction, [PickerArgs]>(PICKER_ACTIONS, actionFor('picker', key), { store, page })) return true;
  const result = applyEditorKey(picker.filter, key, { multiline: false });
  if (result.kind === 'edit' && result.state !== picker.filter) {
    store.getState().updatePicker({ filter: result.state, selected: result.state.text === picker.filter.text ? picker.selected : 0 });
  }
  // Ctrl+C, Ctrl+D, Ctrl+L come first anyway; other Ctrl keys the filter has no use for pass on.
  return result.kind === 'edit' || !key.ctrl;
}

export const PickerContainer = memo(function PickerContainer({ width, maxHeight, theme }: { width: number; maxHeight: number; theme: Theme }) {
  const store = useAppStoreApi();
  const picker = useAppState((state) => state.picker);
  useKeys((key) => handlePickerKey(store, key, pickerListRows(maxHeight, store.getState().picker?.items.length)), KeyPriority.overlay);
  if (!picker) return null;
  return <Picker picker={picker} width={width} maxHeight={maxHeight} theme={theme} />;
});
