/**
 * What the panels can ask of the running session. The containers call these; the session (in
 * cli.tsx) decides what they do, so the same panels work against a test double in component tests.
 */
export interface AppController {
  /** A chat message, a `:command` or a `!shell command`, exactly as typed. */
  submit(text: string): void;
  /** Cancels the running answer, tool or command; false when nothing was running. */
  cancel(): boolean;
  quit(): void;
}
