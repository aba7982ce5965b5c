/**
 * Undo actions registered as things are started (a process, a temp folder, a database), run in reverse
 * order. Every action runs even when an earlier one fails: the bench must leave nothing behind.
 */
export class Cleanups {
  private readonly actions: { what: string; run: () => Promise<void> }[] = [];

  add(what: string, run: () => Promise<void>): void {
    this.actions.push({ what, run });
  }

  /** Runs every action, last added first; throws one error naming each that failed. */
  async runAll(): Promise<void> {
    const failures: string[] = [];
    while (this.actions.length > 0) {
      const action = this.actions.pop()!;
      try {
        await action.run();
      } catch (error) {
        failures.push(`${action.what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0) throw new Error(`cleanup failed: ${failures.join('; ')}`);
  }
}
