/**
 * What the panels can ask of the running session. The containers call these; the session
 * (runtime/session.ts) decides what they do, so the same panels work against a test double in component tests.
 */
export interface SubmitOptions {
  /**
   * The text starts with pasted text: a leading `:` or `!` is part of the message, not a command.
   * Send it to the model as typed.
   */
  literal?: boolean;
}

export interface AppController {
  /** A chat message, a `:command` or a `!shell command`, exactly as typed. */
  submit(text: string, options?: SubmitOptions): void;
  /**
   * Why `text` would not be sent (an unknown `/word`, an attachment that cannot go): the input
   * keeps it and shows this. Undefined: submit it.
   */
  precheck?(text: string, options?: SubmitOptions): string | undefined;
  /** Cancels the running answer, tool or command; false when nothing was running. */
  cancel(): boolean;
  quit(): void;
  /** Sidebar `r`: reconnect one MCP server. */
  reconnectServer?(alias: string): void;
  /** Sidebar `o`: open the selected server's pending sign-in address in the browser (the user saw it in full). */
  openSignIn?(alias: string): void;
  /** Sidebar `d`: disconnect one MCP server (it stays listed as disconnected). */
  disconnectServer?(alias: string): void;
  /** Sidebar `c`: connect a server at runtime; without an alias the session picks one from the URL. */
  connectServer?(url: string, alias?: string): void;
  /** The directories offered to MCP servers as roots, for `:roots remove <Tab>`. */
  roots?(): readonly string[];
  /** `alias/name` of the servers' prompts, for `:prompt <Tab>`. */
  promptNames?(): readonly string[];
  /** Sidebar Space: switch a tool (or, without `tool`, a whole server) on or off for the model. */
  toggleTool?(alias: string, tool?: string): void;
}
