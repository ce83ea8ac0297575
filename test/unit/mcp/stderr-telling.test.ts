import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../../src/services/mcp/stderr';

// The one stderr line a failure message quotes: the error message, never a stack frame, a caret
// line or a runtime footer, and never a start-up banner unless asked for a fallback.

function tail(text: string): StderrTail {
  const result = new StderrTail();
  result.push(text);
  return result;
}

describe('StderrTail.tellingLine', () => {
  it('finds the error message of a Node stack trace, not the frames or the version footer', () => {
    const node = ['/srv/server.js:3', '  throw new TypeError("bad port");', '  ^', '', 'TypeError: bad port', '    at main (/srv/server.js:3:9)', '    at node:internal/main/run_main_module:28:49', '', 'Node.js v20.20.2', ''].join('\n');
    expect(tail(node).tellingLine()).toBe('TypeError: bad port');
  });

  it('finds the exception line of a Python traceback', () => {
    const python = ['Traceback (most recent call last):', '  File "/srv/server.py", line 4, in <module>', '    main()', 'ModuleNotFoundError: No module named \'mcp\'', ''].join('\n');
    expect(tail(python).tellingLine()).toBe("ModuleNotFoundError: No module named 'mcp'");
  });

  it('takes a line that reads like a failure when there is no error message', () => {
    expect(tail('starting\nconfig could not be loaded from ~/.srv\n').tellingLine()).toBe('config could not be loaded from ~/.srv');
  });

  it('says nothing about a banner, unless a fallback is asked for', () => {
    expect(tail('server v1.2 listening on stdio\n').tellingLine()).toBeUndefined();
    expect(tail('usage: srv --port N\n    at somewhere\n').tellingLine(true)).toBe('usage: srv --port N');
  });
});
