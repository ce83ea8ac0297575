// Whether a server's request waits for the user (an elicitation form or URL, a sampling review):
// while one does, that server's tool calls do not time out. A tool that asks the user something
// cannot answer before the user does, and a form takes longer to fill than a call's timeout.

export class UserWaits {
  private count = 0;
  private readonly listeners = new Set<(waiting: boolean) => void>();

  get waiting(): boolean {
    return this.count > 0;
  }

  /** Marks one request as waiting for the user; the returned function ends it (once). */
  hold(): () => void {
    this.count += 1;
    if (this.count === 1) this.notify(true);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count -= 1;
      if (this.count === 0) this.notify(false);
    };
  }

  /** Runs `work` while holding: the hold ends however it settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const release = this.hold();
    try {
      return await work();
    } finally {
      release();
    }
  }

  subscribe(listener: (waiting: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(waiting: boolean): void {
    for (const listener of [...this.listeners]) listener(waiting);
  }
}
