// A small arithmetic language evaluated by a recursive-descent parser. Nothing in the input is
// ever handed to eval or Function: the only names it can reach are the ones in the tables below.

export class CalculatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalculatorError';
  }
}

const MAX_EXPRESSION_LENGTH = 1_000;
/** Deep enough for any real expression, shallow enough that the parser's recursion stays tiny. */
const MAX_NESTING = 64;

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

type MathFunction = { arity: [min: number, max: number]; apply: (args: number[]) => number };

const FUNCTIONS: Record<string, MathFunction> = {
  sqrt: { arity: [1, 1], apply: ([x]) => (x! < 0 ? fail('sqrt of a negative number') : Math.sqrt(x!)) },
  abs: { arity: [1, 1], apply: ([x]) => Math.abs(x!) },
  round: { arity: [1, 2], apply: ([x, digits]) => roundTo(x!, digits ?? 0) },
  floor: { arity: [1, 1], apply: ([x]) => Math.floor(x!) },
  ceil: { arity: [1, 1], apply: ([x]) => Math.ceil(x!) },
  min: { arity: [1, Infinity], apply: (args) => Math.min(...args) },
  max: { arity: [1, Infinity], apply: (args) => Math.max(...args) },
  sum: { arity: [1, Infinity], apply: (args) => args.reduce((total, value) => total + value, 0) },
  pow: { arity: [2, 2], apply: ([base, exponent]) => power(base!, exponent!) },
  sin: { arity: [1, 1], apply: ([x]) => Math.sin(x!) },
  cos: { arity: [1, 1], apply: ([x]) => Math.cos(x!) },
  tan: { arity: [1, 1], apply: ([x]) => Math.tan(x!) },
  exp: { arity: [1, 1], apply: ([x]) => Math.exp(x!) },
  log: {
    arity: [1, 2],
    apply: ([x, base]) => {
      if (x! <= 0) fail('log of a number <= 0');
      if (base === undefined) return Math.log(x!);
      if (base <= 0 || base === 1) fail('log base must be > 0 and not 1');
      return Math.log(x!) / Math.log(base);
    },
  },
  log10: { arity: [1, 1], apply: ([x]) => (x! <= 0 ? fail('log10 of a number <= 0') : Math.log10(x!)) },
};

function fail(message: string): never {
  throw new CalculatorError(message);
}

function roundTo(value: number, digits: number): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) fail('round: digits must be a whole number from 0 to 15');
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function power(base: number, exponent: number): number {
  if (base === 0 && exponent < 0) fail('division by zero');
  const result = base ** exponent;
  if (Number.isNaN(result)) fail(`${base} to the power ${exponent} is not a real number`);
  return result;
}

type Token =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'name'; value: string; at: number }
  | { kind: 'op'; value: string; at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(index));
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]), at: index });
      index += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(index));
    if (name) {
      tokens.push({ kind: 'name', value: name[0].toLowerCase(), at: index });
      index += name[0].length;
      continue;
    }
    if (source.startsWith('**', index)) {
      tokens.push({ kind: 'op', value: '^', at: index });
      index += 2;
      continue;
    }
    if ('+-*/%^(),×÷'.includes(char)) {
      const value = char === '×' ? '*' : char === '÷' ? '/' : char;
      tokens.push({ kind: 'op', value, at: index });
      index += 1;
      continue;
    }
    fail(`unexpected character ${JSON.stringify(char)} at position ${index + 1}`);
  }
  return tokens;
}

class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) fail('empty expression');
    const value = this.expression();
    const extra = this.peek();
    if (extra) fail(`unexpected ${describe(extra)} at position ${extra.at + 1}`);
    return value;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private takeOp(...ops: string[]): string | undefined {
    const token = this.peek();
    if (token?.kind === 'op' && ops.includes(token.value)) {
      this.position += 1;
      return token.value;
    }
    return undefined;
  }

  private nested<T>(parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_NESTING) fail(`expression nested more than ${MAX_NESTING} levels deep`);
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  // expression := term (("+" | "-") term)*
  private expression(): number {
    let value = this.term();
    for (let op = this.takeOp('+', '-'); op; op = this.takeOp('+', '-')) {
      const right = this.term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  // term := unary (("*" | "/" | "%") unary)*
  private term(): number {
    let value = this.unary();
    for (let op = this.takeOp('*', '/', '%'); op; op = this.takeOp('*', '/', '%')) {
      const right = this.unary();
      if ((op === '/' || op === '%') && right === 0) fail(op === '/' ? 'division by zero' : 'modulo by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }

  // unary := ("+" | "-") unary | power   (so -2^2 is -(2^2), as in mathematics)
  private unary(): number {
    const op = this.takeOp('+', '-');
    if (op) return this.nested(() => (op === '-' ? -this.unary() : this.unary()));
    return this.power();
  }

  // power := primary ("^" unary)?   (right-associative: 2^3^2 is 2^(3^2))
  private power(): number {
    const base = this.primary();
    if (this.takeOp('^')) return power(base, this.nested(() => this.unary()));
    return base;
  }

  private primary(): number {
    const token = this.peek();
    if (!token) fail('expression ends too early');
    if (token.kind === 'number') {
      this.position += 1;
      return token.value;
    }
    if (token.kind === 'op' && token.value === '(') {
      this.position += 1;
      const value = this.nested(() => this.expression());
      if (!this.takeOp(')')) fail(`missing ")" for "(" at position ${token.at + 1}`);
      return value;
    }
    if (token.kind === 'name') {
      this.position += 1;
      if (this.takeOp('(')) return this.call(token);
      const constant = CONSTANTS[token.value];
      if (constant !== undefined) return constant;
      if (FUNCTIONS[token.value]) fail(`${token.value} needs parentheses, e.g. ${token.value}(2)`);
      fail(`unknown name ${JSON.stringify(token.value)} at position ${token.at + 1}`);
    }
    fail(`unexpected ${describe(token)} at position ${token.at + 1}`);
  }

  private call(name: Token & { kind: 'name' }): number {
    const fn = FUNCTIONS[name.value];
    if (!fn) fail(`unknown function ${JSON.stringify(name.value)} at position ${name.at + 1}`);
    const args: number[] = [];
    if (!this.takeOp(')')) {
      do args.push(this.nested(() => this.expression()));
      while (this.takeOp(','));
      if (!this.takeOp(')')) fail(`missing ")" after the arguments of ${name.value}`);
    }
    const [min, max] = fn.arity;
    if (args.length < min || args.length > max) {
      const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} or ${max}`;
      fail(`${name.value} takes ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}`);
    }
    return fn.apply(args);
  }
}

function describe(token: Token): string {
  return token.kind === 'number' ? `number ${token.value}` : JSON.stringify(token.value);
}

/** Evaluates an arithmetic expression; throws CalculatorError with a one-line reason. */
export function evaluate(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) fail(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const value = new Parser(tokenize(expression)).parse();
  if (!Number.isFinite(value)) fail('the result is not a finite number');
  return value;
}

/** Prints a result without binary noise: 0.1 + 0.2 shows as 0.3, whole numbers without a fraction. */
export function formatNumber(value: number): string {
  if (Object.is(value, -0)) return '0';
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  return String(Number(value.toPrecision(12)));
}
