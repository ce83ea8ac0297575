// The terminal's background, for choosing the light or dark theme (README.md, "Themes"): asked
// with OSC 11 once the screen is up. The reply comes back on stdin, where the tokenizer takes it
// out of the keys (it never reaches the input) and hands it to `KeyInput.onReply`. Start-up never
// waits for it: the first frame uses the guess, and a terminal that does not answer within the
// timeout keeps it.

export type Background = 'dark' | 'light';

export const BACKGROUND_QUERY = '\x1b]11;?\x07';

/** `ESC ] 11 ; rgb:RRRR/GGGG/BBBB` (1 to 4 hex digits a channel) → its lightness; else undefined. */
export function backgroundFromReply(reply: string): Background | undefined {
  const match = /^\x1b\]11;rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})/i.exec(reply);
  if (!match) return undefined;
  const [red, green, blue] = [match[1]!, match[2]!, match[3]!].map((hex) => parseInt(hex, 16) / (16 ** hex.length - 1));
  // Relative luminance (sRGB weights): past the middle, dark text reads better.
  const luminance = 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
  return luminance > 0.5 ? 'light' : 'dark';
}

/** `COLORFGBG=15;0` (rxvt, Konsole and others set it): the last number is the background colour. */
export function backgroundFromEnv(env: NodeJS.ProcessEnv): Background | undefined {
  const last = env.COLORFGBG?.split(';').at(-1);
  if (last === undefined || !/^\d+$/.test(last)) return undefined;
  const colour = Number(last);
  return colour === 7 || (colour >= 9 && colour <= 15) ? 'light' : 'dark';
}

export interface BackgroundProbe {
  /** Writes the query to the terminal; false when it could not. */
  write(sequence: string): boolean;
  /** Subscribes to terminal replies; returns the unsubscribe. */
  onReply(listener: (reply: string) => void): () => void;
  timeoutMs?: number;
}

/** Asks the terminal; resolves with its answer, or undefined after the timeout. */
export function askBackground(probe: BackgroundProbe): Promise<Background | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: Background | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop();
      resolve(value);
    };
    const stop = probe.onReply((reply) => {
      const found = backgroundFromReply(reply);
      if (found) finish(found);
    });
    const timer = setTimeout(() => finish(undefined), probe.timeoutMs ?? 1000);
    timer.unref?.();
    if (!probe.write(BACKGROUND_QUERY)) finish(undefined);
  });
}
