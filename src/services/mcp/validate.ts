import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

// Arguments are checked against the tool's inputSchema before the call (docs/ARCHITECTURE.md, Conversation rules), so a
// malformed call costs no round trip and the model gets a precise message to correct itself.

type Check = (input: unknown) => { valid: true } | { valid: false; errorMessage: string };

/**
 * How many checks are compiled ahead in all. Each costs about a millisecond of CPU and some memory
 * (ajv keeps every compiled schema); with 20 servers of 50 tools, compiling all 1,000 ahead took
 * over a second of CPU after the servers were ready, while the user moved through the sidebar.
 * Past this many, a tool's check compiles on its first call (about a millisecond; the validator
 * itself is built by then).
 */
export const PREPARE_AHEAD_LIMIT = 200;

export class ArgumentValidator {
  private readonly provider = new AjvJsonSchemaValidator();
  private readonly cache = new WeakMap<object, Check | null>();
  private preparedAhead = 0;

  private checkFor(schema: Record<string, unknown>): Check | null {
    let check = this.cache.get(schema);
    if (check === undefined) {
      try {
        const { $id: _ignoredId, ...withoutId } = schema;
        check = this.provider.getValidator(withoutId as never) as Check;
      } catch {
        check = null;
      }
      this.cache.set(schema, check);
    }
    return check;
  }

  /**
   * Compiles the checks for these schemas ahead of the first call, one per turn of the event loop
   * while nothing else is waiting (the first one also builds the validator itself, some 20 ms), so
   * a tool's first call does not pay for it; up to PREPARE_AHEAD_LIMIT in all.
   */
  prepare(schemas: ReadonlyArray<Record<string, unknown> | undefined>): void {
    const room = Math.max(0, PREPARE_AHEAD_LIMIT - this.preparedAhead);
    const queue = schemas.filter((schema): schema is Record<string, unknown> => !!schema && typeof schema === 'object' && !this.cache.has(schema)).slice(0, room);
    this.preparedAhead += queue.length;
    const next = () => {
      const schema = queue.shift();
      if (schema) this.checkFor(schema);
      if (queue.length > 0) setTimeout(next, 0).unref();
    };
    if (queue.length > 0) setTimeout(next, 0).unref();
  }

  /** undefined when valid (or when the schema itself cannot be compiled: the server then decides). */
  problem(schema: Record<string, unknown> | undefined, args: unknown): string | undefined {
    if (!schema || typeof schema !== 'object') return undefined;
    const check = this.checkFor(schema);
    if (!check) return undefined;
    const result = check(args);
    if (result.valid) return undefined;
    return result.errorMessage.replace(/\bdata\//g, '/').replace(/^data\b/, '(arguments)').replace(/\bdata\b /g, '(arguments) ');
  }
}
