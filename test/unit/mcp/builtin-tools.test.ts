import { describe, expect, it } from 'vitest';
import { CalculatorError, evaluate, formatNumber } from '../../../src/services/builtin/calculator';
import { DiceError, describeRoll, MAX_DICE, rollDice } from '../../../src/services/builtin/dice';
import { formatTime, TimeZoneError } from '../../../src/services/builtin/time';

const calc = (expression: string) => formatNumber(evaluate(expression));

describe('calculator', () => {
  it.each([
    ['2 + 2', '4'],
    ['2 + 3 * 4', '14'],
    ['(2 + 3) * 4', '20'],
    ['2^10', '1024'],
    ['2**10', '1024'],
    ['2^3^2', '512'],
    ['-2^2', '-4'],
    ['(-2)^2', '4'],
    ['10 / 4', '2.5'],
    ['10 % 4', '2'],
    ['0.1 + 0.2', '0.3'],
    ['sqrt(16)', '4'],
    ['abs(-3.5)', '3.5'],
    ['round(pi, 4)', '3.1416'],
    ['round(2.5)', '3'],
    ['min(3, 1, 2) + max(3, 1, 2)', '4'],
    ['sin(0) + cos(0)', '1'],
    ['tan(pi / 4)', '1'],
    ['log(e)', '1'],
    ['log(8, 2)', '3'],
    ['log10(1000)', '3'],
    ['2e3 + .5', '2000.5'],
    ['3 × 4 ÷ 2', '6'],
    ['PI', '3.14159265359'],
  ])('%s = %s', (expression, expected) => {
    expect(calc(expression)).toBe(expected);
  });

  it.each([
    ['', /empty expression/],
    ['2 +', /ends too early/],
    ['(1 + 2', /missing "\)"/],
    ['1 + 2)', /unexpected "\)" at position 6/],
    ['1 / 0', /division by zero/],
    ['5 % 0', /modulo by zero/],
    ['sqrt(-1)', /negative/],
    ['log(0)', /log of a number <= 0/],
    ['foo(1)', /unknown function "foo"/],
    ['x + 1', /unknown name "x"/],
    ['sqrt', /needs parentheses/],
    ['min()', /at least 1 argument/],
    ['sqrt(1, 2)', /takes 1 argument, got 2/],
    ['2 $ 3', /unexpected character "\$" at position 3/],
    ['10^400', /not a finite number/],
    ['(-8)^(1/3)', /not a real number/],
  ])('rejects %j with a clear message', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(CalculatorError);
    expect(() => evaluate(expression)).toThrow(message);
  });

  it('cannot reach anything but arithmetic', () => {
    for (const attack of ['__import__("os")', 'process.exit(1)', 'constructor.constructor("return process")()', 'this', 'require("fs")', 'globalThis']) {
      expect(() => evaluate(attack)).toThrow(CalculatorError);
    }
  });

  it('bounds the length and the nesting of an expression', () => {
    expect(() => evaluate('1+'.repeat(600) + '1')).toThrow(/longer than/);
    expect(() => evaluate('('.repeat(100) + '1' + ')'.repeat(100))).toThrow(/nested more than/);
    expect(() => evaluate('-'.repeat(200) + '1')).toThrow(/nested more than/);
  });
});

describe('dice', () => {
  const sequence = (...values: number[]) => {
    let index = 0;
    return () => values[index++ % values.length]!;
  };

  it('rolls NdS with a modifier', () => {
    const result = rollDice('2d6+3', sequence(4, 5));
    expect(result).toEqual({ notation: '2d6+3', rolls: [4, 5], kept: [4, 5], modifier: 3, total: 12 });
    expect(describeRoll(result)).toBe('Rolled 2d6+3: [4, 5] + 3 = 12');
  });

  it('keeps the highest or lowest dice', () => {
    const high = rollDice('4d6kh3', sequence(3, 1, 6, 4));
    expect(high.kept).toEqual([6, 4, 3]);
    expect(high.total).toBe(13);
    expect(describeRoll(high)).toBe('Rolled 4d6kh3: [3, 1, 6, 4] -> kept [6, 4, 3] = 13');
    const low = rollDice('2d20kl1-1', sequence(17, 5));
    expect(low).toMatchObject({ kept: [5], total: 4 });
  });

  it('accepts d20 as 1d20, any case and spacing', () => {
    expect(rollDice(' D20 + 2 ', sequence(11))).toMatchObject({ notation: 'd20+2', rolls: [11], total: 13 });
  });

  it.each([
    ['', /no dice notation/],
    ['2x6', /invalid dice notation/],
    ['101d6', /too many dice: 101 \(at most 100\)/],
    ['1d1001', /too many sides: 1001 \(at most 1000\)/],
    ['0d6', /at least 1 die/],
    ['1d0', /at least 1 side/],
    ['3d6kh4', /keep between 1 and 3/],
  ])('rejects %j', (notation, message) => {
    expect(() => rollDice(notation)).toThrow(DiceError);
    expect(() => rollDice(notation)).toThrow(message);
  });

  it('uses cryptographic randomness within range by default', () => {
    const { rolls } = rollDice(`${MAX_DICE}d4`);
    expect(rolls).toHaveLength(MAX_DICE);
    expect(rolls.every((value) => Number.isInteger(value) && value >= 1 && value <= 4)).toBe(true);
    expect(new Set(rolls).size).toBeGreaterThan(1);
  });
});

describe('time', () => {
  const instant = new Date('2026-07-04T21:05:09Z');

  it('formats in the requested zone', () => {
    expect(formatTime(instant, 'UTC', 'iso')).toBe('2026-07-04T21:05:09+00:00');
    expect(formatTime(instant, 'Europe/Berlin', 'iso')).toBe('2026-07-04T23:05:09+02:00');
    expect(formatTime(instant, 'Asia/Kolkata', 'iso')).toBe('2026-07-05T02:35:09+05:30');
    expect(formatTime(instant, 'America/New_York', 'date')).toBe('2026-07-04');
    expect(formatTime(instant, 'Asia/Tokyo', 'time')).toBe('06:05:09 GMT+9');
    expect(formatTime(instant, 'America/New_York', 'full')).toBe('Saturday, July 4, 2026 at 17:05 EDT (America/New_York)');
  });

  it('rejects an unknown zone', () => {
    expect(() => formatTime(instant, 'Mars/Olympus_Mons', 'full')).toThrow(TimeZoneError);
    expect(() => formatTime(instant, 'Mars/Olympus_Mons', 'full')).toThrow(/unknown time zone "Mars\/Olympus_Mons"/);
  });
});
