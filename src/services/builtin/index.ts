import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CalculatorError, evaluate, formatNumber } from './calculator';
import { cryptoDie, describeRoll, DiceError, rollDice, type DieRoller } from './dice';
import { formatTime, TIME_FORMATS, TimeZoneError, type TimeFormat } from './time';

// The built-in tools are a real MCP server: the client reaches them over the SDK's in-memory
// transport exactly as it reaches any other server, so listing, validation, approval and result
// handling have no special path.

export { BUILTIN_ALIAS, BUILTIN_TARGET } from './alias';

export interface BuiltinServerOptions {
  version: string;
  now?: () => Date;
  roll?: DieRoller;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const failure = (message: string) => ({ content: [{ type: 'text' as const, text: `Error: ${message}` }], isError: true });

/** Runs a tool body, turning the tool's own errors into an `isError` result the model can read. */
function guarded(run: () => string, known: Array<new (...args: never[]) => Error>) {
  try {
    return text(run());
  } catch (error) {
    if (known.some((kind) => error instanceof kind)) return failure((error as Error).message);
    throw error;
  }
}

export function createBuiltinServer(options: BuiltinServerOptions): McpServer {
  const now = options.now ?? (() => new Date());
  const roll = options.roll ?? cryptoDie;
  const server = new McpServer({ name: 'aish-builtin', version: options.version });

  server.registerTool(
    'calculator',
    {
      title: 'Calculator',
      description:
        'Evaluate an arithmetic expression: + - * / % ^ (or **), parentheses, and sqrt abs round min max sum pow ' +
        'sin cos tan log log10 exp floor ceil, constants pi and e. Example: "sqrt(16) + 2^10 / (3 - 1)".',
      inputSchema: z.object({ expression: z.string().min(1).describe('The expression, e.g. "2 + 2" or "round(pi, 4)"') }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ expression }) => guarded(() => formatNumber(evaluate(expression)), [CalculatorError]),
  );

  server.registerTool(
    'get_time',
    {
      title: 'Current time',
      description: 'Current date and time in an IANA time zone (default UTC). Formats: full, date, time, iso.',
      inputSchema: z.object({
        timezone: z.string().min(1).optional().describe('IANA time zone, e.g. "Europe/Berlin", "America/New_York", "UTC"'),
        format: z.enum(TIME_FORMATS as [TimeFormat, ...TimeFormat[]]).optional().describe('full (default), date, time or iso'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ timezone, format }) => guarded(() => formatTime(now(), timezone ?? 'UTC', format ?? 'full'), [TimeZoneError]),
  );

  server.registerTool(
    'roll_dice',
    {
      title: 'Roll dice',
      description:
        'Roll dice in standard notation: NdS, keep highest/lowest with khN/klN, add or subtract a modifier. ' +
        'Examples: "2d6", "1d20+5", "4d6kh3", "2d20kl1-1". At most 100 dice and 1000 sides.',
      inputSchema: z.object({ notation: z.string().min(1).describe('Dice notation, e.g. "3d6+2"') }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ notation }) => guarded(() => describeRoll(rollDice(notation, roll)), [DiceError]),
  );

  return server;
}

/** Starts the built-in server and returns the client-side end of its in-memory transport. */
export async function startBuiltinServer(options: BuiltinServerOptions): Promise<{ transport: InMemoryTransport; close: () => Promise<void> }> {
  const server = createBuiltinServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { transport: clientSide, close: () => server.close() };
}
