/**
 * Reasoning sent inline in the answer text. A server without a reasoning parser (common with
 * Ollama, vLLM and LM Studio) passes the model's `<think>…</think>` (or `<thinking>…</thinking>`)
 * through in `content`. This splits it off while streaming, so it is shown and folded like
 * `reasoning_content` and never goes back to the model as answer text.
 *
 * Only a block that opens the answer counts (leading whitespace aside): that is where models put
 * it, and a tag later in the text is more likely the answer talking about tags. Tags may arrive
 * split across chunks; the few characters that could still become a tag are held back until the
 * next chunk (or `flush`) decides.
 */

const OPENINGS = [
  { open: '<think>', close: '</think>' },
  { open: '<thinking>', close: '</thinking>' },
] as const;

export interface SplitText {
  text: string;
  reasoning: string;
}

type Mode = 'start' | 'thinking' | 'text';

/** The length of the longest end of `text` that is the beginning of `tag` (a tag still arriving). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let size = Math.min(tag.length - 1, text.length); size > 0; size--) {
    if (tag.startsWith(text.slice(text.length - size))) return size;
  }
  return 0;
}

export class ThinkTagSplitter {
  private mode: Mode = 'start';
  private held = '';
  private close = '';
  /** Whitespace right after `<think>` and right after the closing tag is layout, not content. */
  private trimReasoning = true;
  private trimText = false;

  push(chunk: string): SplitText {
    if (this.mode === 'text') return { text: this.answerText(chunk), reasoning: '' };
    this.held += chunk;
    if (this.mode === 'start') {
      const body = this.held.trimStart();
      if (body.length === 0) return { text: '', reasoning: '' };
      const match = OPENINGS.find(({ open }) => body.startsWith(open));
      if (match) {
        this.mode = 'thinking';
        this.close = match.close;
        this.held = body.slice(match.open.length);
      } else if (OPENINGS.some(({ open }) => open.startsWith(body))) {
        return { text: '', reasoning: '' };
      } else {
        this.mode = 'text';
        const text = this.held;
        this.held = '';
        return { text, reasoning: '' };
      }
    }
    return this.thinking();
  }

  /** What is still held, at the end of the stream: an unclosed block stays reasoning. */
  flush(): SplitText {
    const held = this.held;
    this.held = '';
    const mode = this.mode;
    this.mode = 'text';
    if (mode === 'thinking') return { text: '', reasoning: this.reasoningText(held) };
    return { text: mode === 'start' ? held : '', reasoning: '' };
  }

  private thinking(): SplitText {
    const end = this.held.indexOf(this.close);
    if (end >= 0) {
      const reasoning = this.reasoningText(this.held.slice(0, end).trimEnd());
      const rest = this.held.slice(end + this.close.length);
      this.held = '';
      this.mode = 'text';
      this.trimText = true;
      return { text: this.answerText(rest), reasoning };
    }
    // Whitespace just before a closing tag is layout too: held until it is known what follows.
    let keep = partialTagAtEnd(this.held, this.close);
    while (keep < this.held.length && /\s/.test(this.held[this.held.length - keep - 1]!)) keep++;
    const reasoning = this.reasoningText(this.held.slice(0, this.held.length - keep));
    this.held = this.held.slice(this.held.length - keep);
    return { text: '', reasoning };
  }

  private reasoningText(text: string): string {
    if (!this.trimReasoning) return text;
    const trimmed = text.trimStart();
    if (trimmed.length > 0) this.trimReasoning = false;
    return trimmed;
  }

  private answerText(text: string): string {
    if (!this.trimText) return text;
    const trimmed = text.trimStart();
    if (trimmed.length > 0) this.trimText = false;
    return trimmed;
  }
}
