import { describe, expect, it } from 'vitest';
import { ArgumentValidator, PREPARE_AHEAD_LIMIT } from '../../../src/services/mcp/validate';

const schema = (index: number) => ({ type: 'object', properties: { [`field${index}`]: { type: 'string' } }, required: [`field${index}`] });

/** Counts the checks the validator compiles. */
function counted(validator: ArgumentValidator): { compiled: number } {
  const counter = { compiled: 0 };
  const provider = (validator as unknown as { provider: { getValidator: (schema: unknown) => unknown } }).provider;
  const real = provider.getValidator.bind(provider);
  provider.getValidator = (input) => {
    counter.compiled++;
    return real(input);
  };
  return counter;
}

const idle = async (turns: number) => {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('argument checks compiled ahead', () => {
  it('compiles at most PREPARE_AHEAD_LIMIT checks ahead across servers; the others compile on their first call, and still check', async () => {
    const validator = new ArgumentValidator();
    const counter = counted(validator);
    const servers = Array.from({ length: 20 }, (_, server) => Array.from({ length: 50 }, (_, tool) => schema(server * 50 + tool)));
    for (const schemas of servers) validator.prepare(schemas);
    await idle(PREPARE_AHEAD_LIMIT + 50);
    expect(counter.compiled).toBe(PREPARE_AHEAD_LIMIT);
    // A tool past the limit is still checked: its check compiles on its first call.
    const last = servers[19]![49]!;
    expect(validator.problem(last, {})).toContain('field999');
    expect(validator.problem(last, { field999: 'x' })).toBeUndefined();
    expect(counter.compiled).toBe(PREPARE_AHEAD_LIMIT + 1);
    // A prepared one does not compile again.
    expect(validator.problem(servers[0]![0]!, { field0: 'x' })).toBeUndefined();
    expect(counter.compiled).toBe(PREPARE_AHEAD_LIMIT + 1);
  });
});
