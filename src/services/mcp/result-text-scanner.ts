// Finds the text of a tool result's content blocks (`result.content[i].text`) in a JSON-RPC line as
// its bytes arrive, and past `headBytes` of one such string sends the rest of it to a file
// (shared/spilled-text.ts) instead of the line. What the line keeps is the string's head and a
// marker, so the message parses as before, small. A byte scanner, not a parser: it follows strings,
// escapes and nesting only far enough to know where it is; a line that is not JSON fails to parse
// later exactly as it would have, and its rest is given up.
import { RestWriter } from '../shared/spilled-text';

const OBJECT = 0;
const ARRAY = 1;
/** Longer keys are never one of the three the path needs. */
const MAX_KEY_CHARS = 16;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
function indexOrEnd(part: Buffer, byte: number, from: number): number {
  const at = part.indexOf(byte, from);
  return at === -1 ? part.length : at;
}

/** Where the last character of `part[from, end)` starts (`from` when none starts there). */
function lastCharStart(part: Buffer, from: number, end: number): number {
  let at = end - 1;
  while (at > from && (part[at]! & 0xc0) === 0x80) at--;
  return at;
}

/** Bytes the character at the end of `part[from, end)` still needs (`before`: what it needed at `from`). */
function unfinishedBytes(part: Buffer, from: number, end: number, before: number): number {
  const start = lastCharStart(part, from, end);
  const lead = part[start]!;
  if ((lead & 0xc0) === 0x80) return Math.max(0, before - (end - from));
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return Math.max(0, length - (end - start));
}

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : 0;
}

/** A control character is not allowed in a JSON string: put in the line, it makes the line fail to parse. */
const BREAKS_THE_LINE = Buffer.from([0x01]);

export class ResultTextScanner {
  private readonly containers: number[] = [];
  /** The key being read or last read at each depth (undefined in arrays). */
  private readonly keys: Array<string | undefined> = [];
  private expectKey = false;
  private inString = false;
  private stringIsKey = false;
  private key = '';
  private escaped = false;
  private hexLeft = 0;
  private hexValue = 0;
  /** The escape just read is the high half of a surrogate pair: no cut before its low half. */
  private highHalf = false;
  private utf8Left = 0;
  private candidate = false;
  private stringBytes = 0;
  private writer: RestWriter | undefined;
  /** Spilled bytes that do not end on a whole character or escape yet. */
  private carry: Buffer | undefined;
  private lineWriters: RestWriter[] = [];

  /** `headBytes`: bytes of a result text (as sent, escaped) the line keeps before the rest is spilled. */
  constructor(private readonly headBytes: number) {}

  /** Scans the next bytes of the current line; returns what the line keeps of them, in order. */
  scan(part: Buffer): Buffer[] {
    const kept: Buffer[] = [];
    let keepFrom = this.writer ? -1 : 0;
    let spillFrom = this.writer ? 0 : -1;
    let whole = 0;
    let nextQuote = -1;
    let nextBackslash = -1;
    for (let i = 0; i < part.length; i++) {
      // The plain text of a value string, up to its next quote or backslash, in one step: a long
      // result is almost all such text.
      if (this.inString && !this.stringIsKey && !this.escaped && this.hexLeft === 0 && !this.highHalf) {
        if (nextQuote < i) nextQuote = indexOrEnd(part, QUOTE, i);
        if (nextBackslash < i) nextBackslash = indexOrEnd(part, BACKSLASH, i);
        const stop = Math.min(nextQuote, nextBackslash);
        if (stop > i) {
          if (this.candidate && !this.writer && this.stringBytes + (stop - i) >= this.headBytes) {
            // The first character start at or past the head; at the part's end that is not known yet.
            let cut = i + Math.max(0, this.headBytes - this.stringBytes);
            while (cut < stop && (part[cut]! & 0xc0) === 0x80) cut++;
            if (cut < stop || stop < part.length) {
              this.stringBytes += cut - i;
              this.utf8Left = 0;
              kept.push(part.subarray(keepFrom, cut));
              this.writer = new RestWriter();
              this.lineWriters.push(this.writer);
              keepFrom = -1;
              spillFrom = cut;
              whole = cut;
              i = cut - 1;
              continue;
            }
          }
          this.stringBytes += stop - i;
          if (stop < part.length) {
            this.utf8Left = 0;
            if (this.writer) whole = stop;
          } else {
            this.utf8Left = unfinishedBytes(part, i, stop, this.utf8Left);
            if (this.writer && this.utf8Left === 0) whole = stop;
            else if (this.writer) {
              // Up to the unfinished character, if it started here (else it started before `i`).
              const start = lastCharStart(part, i, stop);
              if ((part[start]! & 0xc0) !== 0x80) whole = Math.max(whole, start);
            }
          }
          i = stop - 1;
          continue;
        }
      }
      const byte = part[i]!;
      if (!this.inString) {
        this.structure(byte);
        continue;
      }
      const afterHighHalf = this.highHalf;
      this.highHalf = false;
      if (this.escaped) {
        this.escaped = false;
        if (byte === 0x75) {
          this.hexLeft = 4;
          this.hexValue = 0;
        }
      } else if (this.hexLeft > 0) {
        this.hexLeft--;
        this.hexValue = this.hexValue * 16 + hexDigit(byte);
        if (this.hexLeft === 0) this.highHalf = this.hexValue >= 0xd800 && this.hexValue <= 0xdbff;
      } else if (byte === BACKSLASH) {
        this.escaped = true;
      } else if (byte === QUOTE) {
        this.inString = false;
        if (this.stringIsKey) this.keys[this.keys.length - 1] = this.key.length <= MAX_KEY_CHARS ? this.key : undefined;
        if (this.writer) {
          this.spill(part.subarray(spillFrom, i));
          kept.push(this.endRest());
          keepFrom = i;
          spillFrom = -1;
        }
        continue;
      } else if (byte >= 0xc0) {
        this.utf8Left = byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1;
      } else if (byte >= 0x80) {
        if (this.utf8Left > 0) this.utf8Left--;
      } else {
        this.utf8Left = 0;
      }
      if (this.stringIsKey) {
        if (this.key.length <= MAX_KEY_CHARS) this.key += String.fromCharCode(byte);
        continue;
      }
      this.stringBytes++;
      const atWhole = !this.escaped && this.hexLeft === 0 && this.utf8Left === 0 && !this.highHalf;
      // A backslash right after a high half may start its low half: still no cut there.
      if (afterHighHalf && this.escaped) this.highHalf = true;
      if (this.writer) {
        if (atWhole) whole = i + 1;
      } else if (this.candidate && atWhole && this.stringBytes >= this.headBytes) {
        kept.push(part.subarray(keepFrom, i + 1));
        this.writer = new RestWriter();
        this.lineWriters.push(this.writer);
        keepFrom = -1;
        spillFrom = i + 1;
        whole = i + 1;
      }
    }
    if (this.writer) {
      // Up to the last whole character or escape; the bytes after it wait for the next part.
      if (whole > spillFrom) this.spill(part.subarray(spillFrom, whole));
      const tail = part.subarray(Math.max(whole, spillFrom));
      if (tail.length > 0) this.carry = this.carry ? Buffer.concat([this.carry, tail]) : Buffer.from(tail);
    } else if (keepFrom === 0 && kept.length === 0) {
      return [part];
    } else if (keepFrom < part.length) {
      kept.push(part.subarray(keepFrom));
    }
    return kept;
  }

  /**
   * The line ended: the rests it spilled (complete, for the message to name) and a fresh state.
   * A rest still open (the line ended inside its string: not JSON) is given up.
   */
  endLine(): RestWriter[] {
    if (this.writer) {
      this.writer.discard();
      this.lineWriters = this.lineWriters.filter((writer) => writer !== this.writer);
    }
    const writers = this.lineWriters;
    this.reset();
    return writers;
  }

  /** Everything given up (the buffer was cleared: the server is being stopped). */
  reset(): void {
    this.writer?.discard();
    this.writer = undefined;
    this.carry = undefined;
    this.lineWriters = [];
    this.containers.length = 0;
    this.keys.length = 0;
    this.expectKey = false;
    this.inString = false;
  }

  private structure(byte: number): void {
    switch (byte) {
      case QUOTE:
        this.inString = true;
        this.stringIsKey = this.expectKey && this.containers.at(-1) === OBJECT;
        this.key = '';
        this.escaped = false;
        this.hexLeft = 0;
        this.utf8Left = 0;
        this.stringBytes = 0;
        this.candidate = !this.stringIsKey && this.atResultText();
        break;
      case 0x7b: // {
        this.containers.push(OBJECT);
        this.keys.push(undefined);
        this.expectKey = true;
        break;
      case 0x5b: // [
        this.containers.push(ARRAY);
        this.keys.push(undefined);
        this.expectKey = false;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        this.containers.pop();
        this.keys.pop();
        this.expectKey = false;
        break;
      case 0x2c: // ,
        this.expectKey = this.containers.at(-1) === OBJECT;
        break;
      case 0x3a: // :
        this.expectKey = false;
        break;
    }
  }

  /** `{"result": {"content": [{"text": <here>`: a tool result's text block (tools/call, tasks/result). */
  private atResultText(): boolean {
    const c = this.containers;
    return c.length === 4 && c[0] === OBJECT && c[1] === OBJECT && c[2] === ARRAY && c[3] === OBJECT && this.keys[0] === 'result' && this.keys[1] === 'content' && this.keys[3] === 'text';
  }

  private spill(bytes: Buffer): void {
    const piece = this.carry ? Buffer.concat([this.carry, bytes]) : bytes;
    this.carry = undefined;
    this.writer!.write(piece);
  }

  /** The string's rest is complete: the bytes that stand for it in the line. */
  private endRest(): Buffer {
    const writer = this.writer!;
    this.writer = undefined;
    if (writer.invalid) {
      writer.discard();
      this.lineWriters = this.lineWriters.filter((candidate) => candidate !== writer);
      return BREAKS_THE_LINE;
    }
    writer.finish();
    return Buffer.from(writer.placeholderJson(), 'utf8');
  }
}
