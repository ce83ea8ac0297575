import { randomInt } from 'node:crypto';

// Standard dice notation: NdS, optionally keep-highest/keep-lowest (khN / klN) and a modifier (+M / -M).

export const MAX_DICE = 100;
export const MAX_SIDES = 1000;
const MAX_MODIFIER = 1_000_000;

export class DiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiceError';
  }
}

export interface DiceRoll {
  notation: string;
  rolls: number[];
  kept: number[];
  modifier: number;
  total: number;
}

/** Draws a whole number in [1, sides]; injectable so tests can check the arithmetic. */
export type DieRoller = (sides: number) => number;
export const cryptoDie: DieRoller = (sides) => randomInt(1, sides + 1);

const NOTATION = /^(\d*)d(\d+)(?:(kh|kl)(\d+))?(?:([+-])(\d+))?$/;

export function rollDice(input: string, roll: DieRoller = cryptoDie): DiceRoll {
  const notation = input.replace(/\s+/g, '').toLowerCase();
  if (notation.length === 0) throw new DiceError('no dice notation given (e.g. "2d6", "1d20+5", "4d6kh3")');
  const match = NOTATION.exec(notation);
  if (!match) throw new DiceError(`invalid dice notation ${JSON.stringify(input)} (expected e.g. "2d6", "1d20+5", "4d6kh3", "2d20kl1")`);
  const count = match[1] === '' ? 1 : Number(match[1]);
  const sides = Number(match[2]);
  const keepMode = match[3] as 'kh' | 'kl' | undefined;
  const keepCount = match[4] === undefined ? undefined : Number(match[4]);
  const modifier = match[5] === undefined ? 0 : (match[5] === '-' ? -1 : 1) * Number(match[6]);

  if (count < 1) throw new DiceError('roll at least 1 die');
  if (count > MAX_DICE) throw new DiceError(`too many dice: ${count} (at most ${MAX_DICE})`);
  if (sides < 1) throw new DiceError('a die needs at least 1 side');
  if (sides > MAX_SIDES) throw new DiceError(`too many sides: ${sides} (at most ${MAX_SIDES})`);
  if (keepCount !== undefined && (keepCount < 1 || keepCount > count)) {
    throw new DiceError(`can only keep between 1 and ${count} dice, got ${keepCount}`);
  }
  if (Math.abs(modifier) > MAX_MODIFIER) throw new DiceError(`modifier too large (at most ${MAX_MODIFIER})`);

  const rolls = Array.from({ length: count }, () => roll(sides));
  let kept = rolls;
  if (keepMode && keepCount !== undefined) {
    const sorted = [...rolls].sort((a, b) => (keepMode === 'kh' ? b - a : a - b));
    kept = sorted.slice(0, keepCount);
  }
  const total = kept.reduce((sum, value) => sum + value, 0) + modifier;
  return { notation, rolls, kept, modifier, total };
}

export function describeRoll(result: DiceRoll): string {
  const parts = [`Rolled ${result.notation}: [${result.rolls.join(', ')}]`];
  if (result.kept !== result.rolls) parts.push(`kept [${result.kept.join(', ')}]`);
  let line = parts.join(' -> ');
  if (result.modifier !== 0) line += ` ${result.modifier > 0 ? '+' : '-'} ${Math.abs(result.modifier)}`;
  return `${line} = ${result.total}`;
}
