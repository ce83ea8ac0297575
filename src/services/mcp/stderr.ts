// What a stdio server writes to stderr is kept for the sidebar: the last lines only, each cut to
// a readable length. The text stays raw here; the UI sanitizes it at display time.

export const STDERR_LINES = 200;
export const STDERR_LINE_CHARS = 500;

/** Stack frames (Node, Python, Java, Go), caret lines and runtime footers: never the reason itself. */
const STACK_NOISE = /^(at\s|File ".*", line \d+|\^+$|~*\^[~^]*$|node:internal\/|Node\.js v\d|\.\.\. \d+ more|goroutine \d+ \[|[{}\[\]]$|Traceback \(most recent call last\))/;
/** `TypeError: ...`, `java.io.IOException: ...`, `Error [ERR_X]: ...`, `fatal: ...`, `panic: ...`, `ERROR ...`. */
const ERROR_MESSAGE = /^(Uncaught\s+)?[\w.$]*(Error|Exception)(\s*\[[\w-]+\])?:\s|^(fatal|panic|error)\b/i;
const FAILURE_WORDS = /\b(error|exception|fatal|failed|failure|cannot|can't|could not|unable|denied|refused|not found|no such|invalid|missing)\b/i;

export class StderrTail {
  private lines: string[] = [];
  private partial = '';
  private version = 0;

  constructor(
    private readonly maxLines = STDERR_LINES,
    private readonly maxChars = STDERR_LINE_CHARS,
  ) {}

  push(chunk: string): void {
    const text = this.partial + chunk;
    const pieces = text.split(/\r?\n/);
    this.partial = pieces.pop() ?? '';
    // A line that never ends must not grow without bound.
    if (this.partial.length > this.maxChars * 4) {
      pieces.push(this.partial);
      this.partial = '';
    }
    if (pieces.length === 0) return;
    for (const line of pieces) this.lines.push(this.cut(line));
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
    this.version += 1;
  }

  private cut(line: string): string {
    return line.length > this.maxChars ? `${line.slice(0, this.maxChars)}... (${line.length - this.maxChars} more characters)` : line;
  }

  /** The kept lines, including an unfinished last line. */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.cut(this.partial)] : [...this.lines];
  }

  /** The last non-empty line, for one-line error messages. */
  lastLine(): string | undefined {
    const all = this.snapshot();
    for (let index = all.length - 1; index >= 0; index -= 1) {
      const line = all[index]!.trim();
      if (line) return line;
    }
    return undefined;
  }

  /**
   * The line that best says why the server failed, for one-line messages: the last error message
   * (`Error: ...`, `ValueError: ...`, `fatal: ...`), never a stack frame or a runtime's version
   * footer. Otherwise the last line that reads like a failure; with `fallback`, the last line
   * that is not a frame. Undefined when nothing qualifies (a start-up banner says nothing).
   */
  tellingLine(fallback = false): string | undefined {
    const lines = this.snapshot()
      .map((line) => line.trim())
      .filter((line) => line && !STACK_NOISE.test(line));
    const last = (test: (line: string) => boolean) => lines.findLast(test);
    return last((line) => ERROR_MESSAGE.test(line)) ?? last((line) => FAILURE_WORDS.test(line)) ?? (fallback ? lines.at(-1) : undefined);
  }

  get changes(): number {
    return this.version + (this.partial ? 1 : 0);
  }
}
