// What a sandbox is asked for (config `shell.sandbox`, `mcp.servers.<alias>.sandbox`) and what
// one run of it confines. Types only: the UI may import this module.

/** The config's `sandbox: true | { writable, network, hide, readable }`, with its defaults filled in. */
export interface SandboxSettings {
  /** Paths writable besides the workspace (`~/` and relative paths allowed). */
  writable: string[];
  /** true: the process shares the network; false (default): no network at all, not even loopback. */
  network: boolean;
  /** More paths made invisible, besides the home secrets hidden always. */
  hide: string[];
  /**
   * Paths made visible again, read-only, over the private /tmp (a server or its packages kept
   * under /tmp would otherwise not be found). The secrets stay hidden even inside them.
   */
  readable: string[];
}

/** One confined run: every path absolute. */
export interface SandboxPlan {
  /** Writable, and the working directory. */
  workspace: string;
  /** More writable paths (those that exist). */
  writable: string[];
  /** Read-only again over the private /tmp (those that exist). */
  readable: string[];
  network: boolean;
  /** Secrets that exist and are covered: directories by an empty tmpfs, files by /dev/null. */
  hidden: string[];
  /** For the `~/…` of descriptions. */
  home: string;
}

/** Whether bubblewrap can confine processes here, or why not (one line naming the package). */
export type SandboxAvailability = { ok: true; bwrap: string } | { ok: false; reason: string };
