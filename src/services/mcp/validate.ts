import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

// seed-002 executor: arguments are checked against the tool's inputSchema before the call, so a
// malformed call costs no round trip and the model gets a precise message to correct itself.

type Check = (input: unknown) => { valid: true } | { valid: false; errorMessage: string };

export class ArgumentValidator {
  private readonly provider = new AjvJsonSchemaValidator();
  private readonly cache = new WeakMap<object, Check | null>();

  /** undefined when valid (or when the schema itself cannot be compiled: the server then decides). */
  problem(schema: Record<string, unknown> | undefined, args: unknown): string | undefined {
    if (!schema || typeof schema !== 'object') return undefined;
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
    if (!check) return undefined;
    const result = check(args);
    if (result.valid) return undefined;
    return result.errorMessage.replace(/\bdata\//g, '/').replace(/^data\b/, '(arguments)').replace(/\bdata\b /g, '(arguments) ');
  }
}
