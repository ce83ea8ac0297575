import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/services/shared/duration';

describe('the one duration formatter', () => {
  it('exact (the default): limits and measured times as given', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(2000)).toBe('2s');
    expect(formatDuration(1500)).toBe('1.5s');
    expect(formatDuration(120_000, 'exact')).toBe('120s');
  });

  it('rounded: one decimal under 10s, whole seconds under 2min, minutes after', () => {
    expect(formatDuration(300, 'rounded')).toBe('0.3s');
    expect(formatDuration(0, 'rounded')).toBe('0s');
    expect(formatDuration(1000, 'rounded')).toBe('1s');
    expect(formatDuration(1500, 'rounded')).toBe('1.5s');
    expect(formatDuration(45_400, 'rounded')).toBe('45s');
    expect(formatDuration(300_000, 'rounded')).toBe('5min');
    expect(formatDuration(150_000, 'rounded')).toBe('2.5min');
    expect(formatDuration(3_600_000, 'rounded')).toBe('60min');
  });

  it('clock: steady width for a ticking elapsed time', () => {
    expect(formatDuration(-5, 'clock')).toBe('0ms');
    expect(formatDuration(12.4, 'clock')).toBe('12ms');
    expect(formatDuration(1000, 'clock')).toBe('1.0s');
    expect(formatDuration(4200, 'clock')).toBe('4.2s');
    expect(formatDuration(187_000, 'clock')).toBe('3m 07s');
  });
});
