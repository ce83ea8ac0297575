// The full screen's small comforts that talk to the terminal itself (README.md, "Notifications",
// "Themes"): focus reports, a notification while the terminal is in the background, and the
// background colour that picks the theme. Everything the terminal answers comes back through the
// one keyboard reader as replies, never as keys.
import type { AppConfig } from '../services/config/load';
import { ATTENTION_TEXT, watchForAttention } from '../runtime/attention';
import type { AppStore } from '../state/store';
import { askBackground, backgroundFromEnv, type Background } from '../terminal/background';
import type { KeyInput } from '../terminal/keyboard/keyInput';
import { FOCUS_IN, FOCUS_OUT, notifyMethodFor, notifySequence } from '../terminal/notify';

const NO_OSC_TERMS = new Set(['linux', 'dumb']);

export interface ComfortsOptions {
  config: Pick<AppConfig, 'ui'>;
  store: AppStore;
  keys: Pick<KeyInput, 'onReply'>;
  /** Writes a sequence between frames; false when it could not (the screen is handed over). */
  write: (sequence: string) => boolean;
  env: NodeJS.ProcessEnv;
}

/** The background the first frame is drawn for: the config's, else the environment's guess, else dark. */
export function initialBackground(config: Pick<AppConfig, 'ui'>, env: NodeJS.ProcessEnv): Background {
  return config.ui.theme === 'auto' ? (backgroundFromEnv(env) ?? 'dark') : config.ui.theme;
}

/** Starts following focus, notifying and (with `ui.theme: auto`) asking for the background; returns the stop. */
export function startComforts(options: ComfortsOptions): () => void {
  let focused = true;
  const stopFocus = options.keys.onReply((reply) => {
    if (reply === FOCUS_IN) focused = true;
    else if (reply === FOCUS_OUT) focused = false;
  });
  const method = notifyMethodFor(options.config.ui.notify, options.env);
  const stopWatch =
    method === 'off'
      ? () => {}
      : watchForAttention(options.store, {
          focused: () => focused,
          notify: (reason) => {
            options.write(notifySequence(method, 'aish-tui', ATTENTION_TEXT[reason]));
          },
        });
  const noColor = options.env.NO_COLOR !== undefined && options.env.NO_COLOR !== '';
  // The Linux console prints an OSC it does not know; it is dark anyway.
  const answersOsc = !NO_OSC_TERMS.has(options.env.TERM ?? '');
  if (options.config.ui.theme === 'auto' && !noColor && answersOsc) {
    void askBackground({ write: options.write, onReply: (listener) => options.keys.onReply(listener) }).then((background) => {
      if (background) options.store.getState().setBackground(background);
    });
  }
  return () => {
    stopFocus();
    stopWatch();
  };
}
