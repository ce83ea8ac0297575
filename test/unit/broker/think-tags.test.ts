import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter } from '../../../src/services/broker/think-tags';

/** Feeds the chunks, then flushes; returns everything split out, joined. */
function split(chunks: string[]): { text: string; reasoning: string } {
  const splitter = new ThinkTagSplitter();
  let text = '';
  let reasoning = '';
  for (const piece of [...chunks.map((chunk) => splitter.push(chunk)), splitter.flush()]) {
    text += piece.text;
    reasoning += piece.reasoning;
  }
  return { text, reasoning };
}

/** Every way of cutting `whole` into two chunks, and one character per chunk. */
function cuts(whole: string): string[][] {
  const ways: string[][] = [[whole], [...whole]];
  for (let at = 1; at < whole.length; at++) ways.push([whole.slice(0, at), whole.slice(at)]);
  return ways;
}

describe('inline reasoning tags', () => {
  it('a leading <think> block becomes reasoning, however the chunks cut the tags', () => {
    const whole = '<think>\nThe user wants 2+2.\n</think>\n\nIt is **4**.';
    for (const chunks of cuts(whole)) expect(split(chunks), JSON.stringify(chunks)).toEqual({ text: 'It is **4**.', reasoning: 'The user wants 2+2.' });
  });

  it('<thinking> works the same, and leading whitespace before the tag is allowed', () => {
    for (const chunks of cuts('\n  <thinking>plan</thinking>answer')) expect(split(chunks)).toEqual({ text: 'answer', reasoning: 'plan' });
  });

  it('a closing tag of the other kind does not close the block', () => {
    expect(split(['<thinking>a </think> b</thinking>c'])).toEqual({ text: 'c', reasoning: 'a </think> b' });
  });

  it('text that does not open with a tag is left alone, also when it mentions tags later', () => {
    for (const chunks of cuts('Use <think> tags like <think>this</think>.')) expect(split(chunks)).toEqual({ text: 'Use <think> tags like <think>this</think>.', reasoning: '' });
    expect(split(['<thi', 'rd>'])).toEqual({ text: '<third>', reasoning: '' });
    expect(split(['<b>bold</b>'])).toEqual({ text: '<b>bold</b>', reasoning: '' });
  });

  it('a block never closed (the answer was cut) stays reasoning; a lone partial tag at the end is text', () => {
    expect(split(['<think>still thinking', ' about it</thi'])).toEqual({ text: '', reasoning: 'still thinking about it</thi' });
    expect(split(['<thin'])).toEqual({ text: '<thin', reasoning: '' });
  });

  it('reasoning streams out as it arrives; only a possible tag end is held back', () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push('<think>step one')).toEqual({ text: '', reasoning: 'step one' });
    expect(splitter.push(', step two</')).toEqual({ text: '', reasoning: ', step two' });
    expect(splitter.push('think>Done')).toEqual({ text: 'Done', reasoning: '' });
    expect(splitter.push(' <think>x</think>')).toEqual({ text: ' <think>x</think>', reasoning: '' });
  });
});
