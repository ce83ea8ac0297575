// Redaction of a text that arrives in slices (a huge tool result written to its side file a slice
// at a time). A secret or a credential shape can span two slices, so text is passed on only up to
// a cut where redacting the two sides apart gives the same as redacting them together: the
// redactor itself decides, so this holds for known values and for shapes alike, as long as a secret
// or a credential and what decides whether it matches (the character before a token's scheme word)
// fit in the margin on each side of the cut. What is held back waits for the next slice.

/** Text on each side of a cut that the check looks at; far longer than any key or token. */
const CUT_MARGIN = 8 * 1024;

export interface StreamRedactor {
  push(slice: string): void;
  /** Redacts and passes on what is still held. */
  end(): void;
}

export function createStreamRedactor(redact: (text: string) => string, emit: (redacted: string) => void, margin = CUT_MARGIN): StreamRedactor {
  let held = '';

  function safeCut(at: number): boolean {
    const before = held.slice(Math.max(0, at - margin), at);
    const after = held.slice(at, at + margin);
    return redact(before) + redact(after) === redact(before + after);
  }

  /** A cut at least `margin` before the end, at a line end where there is one; 0 when none is safe. */
  function findCut(): number {
    let at = held.length - margin;
    for (let tries = 0; tries < 4 && at > margin; tries++, at -= margin) {
      const lineEnd = held.lastIndexOf('\n', at);
      let cut = lineEnd > at - margin ? lineEnd + 1 : at;
      // Never between the two halves of a surrogate pair: each side is written out as UTF-8.
      const last = held.charCodeAt(cut - 1);
      if (last >= 0xd800 && last <= 0xdbff) cut--;
      if (safeCut(cut)) return cut;
    }
    return 0;
  }

  return {
    push(slice) {
      held += slice;
      if (held.length < 4 * margin) return;
      const cut = findCut();
      if (cut === 0) return;
      emit(redact(held.slice(0, cut)));
      held = held.slice(cut);
    },
    end() {
      if (held.length > 0) emit(redact(held));
      held = '';
    },
  };
}
