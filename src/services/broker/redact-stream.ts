import { redact, secretValues } from '../shared/redact';

/**
 * Redaction for text that arrives in pieces. A server that echoes the API key back in its answer
 * (a proxy's "invalid key sk-…" message streamed as content) may split the key across deltas, so
 * replacing it per delta is not enough: the tail of what has arrived that could still become a
 * secret is held back until the next piece (or `flush`) shows whether it does.
 */
export class StreamRedactor {
  private held = '';
  private readonly secrets: string[];

  constructor(secrets: readonly string[]) {
    this.secrets = secretValues(secrets);
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  /** The part of the text so far that can be shown: redacted, minus a held-back possible secret start. */
  push(text: string): string {
    if (!this.active) return text;
    const buffer = redact(this.held + text, this.secrets);
    const keep = this.partialSecretAtEnd(buffer);
    this.held = buffer.slice(buffer.length - keep);
    return buffer.slice(0, buffer.length - keep);
  }

  /** Whatever was held back: the stream ended, it cannot become a secret any more. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }

  /** Length of the longest end of `text` that is a proper prefix of a secret. */
  private partialSecretAtEnd(text: string): number {
    let longest = 0;
    for (const secret of this.secrets) {
      for (let length = Math.min(secret.length - 1, text.length); length > longest; length--) {
        if (text.endsWith(secret.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
