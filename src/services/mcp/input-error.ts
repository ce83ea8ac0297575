/** A mistake in what the user asked for (bad alias, bad URL); the message is one line for them. */
export class McpInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpInputError';
  }
}
