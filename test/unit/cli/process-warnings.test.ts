import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SHOWN_WARNINGS, routeProcessWarnings } from '../../../src/cli/process-warnings';

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

describe('process warnings while the UI runs', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it('shows each distinct warning once, takes the printers off while routed, and puts them back', async () => {
    const printers = process.listeners('warning');
    const shown: string[] = [];
    restore = routeProcessWarnings((text) => shown.push(text));
    for (const printer of printers) expect(process.listeners('warning')).not.toContain(printer);
    process.emitWarning('the same thing', 'ProbeWarning');
    process.emitWarning('the same thing', 'ProbeWarning');
    process.emitWarning('another thing', 'ProbeWarning');
    await nextTick();
    expect(shown).toEqual(['ProbeWarning: the same thing', 'ProbeWarning: another thing']);
    restore();
    restore = undefined;
    expect(process.listeners('warning')).toEqual(printers);
  });

  it('shows at most MAX_SHOWN_WARNINGS in a session', async () => {
    const shown: string[] = [];
    restore = routeProcessWarnings((text) => shown.push(text));
    for (let index = 0; index < MAX_SHOWN_WARNINGS + 5; index++) process.emitWarning(`warning ${index}`, 'ProbeWarning');
    await nextTick();
    expect(shown).toHaveLength(MAX_SHOWN_WARNINGS);
    expect(shown.at(-1)).toBe(`ProbeWarning: warning ${MAX_SHOWN_WARNINGS - 1}`);
  });

  it('shows nothing when node was told not to print warnings (no printer of its own)', async () => {
    const printers = process.listeners('warning');
    for (const printer of printers) process.off('warning', printer);
    const silence = () => {};
    try {
      const shown: string[] = [];
      restore = routeProcessWarnings((text) => shown.push(text));
      // A listener of the test's own keeps node from printing this one to the test's stderr.
      process.on('warning', silence);
      process.emitWarning('nobody wants to see this', 'ProbeWarning');
      await nextTick();
      expect(shown).toEqual([]);
    } finally {
      process.off('warning', silence);
      for (const printer of printers) process.on('warning', printer);
    }
  });
});
