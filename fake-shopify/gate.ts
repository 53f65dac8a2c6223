/**
 * A door a test holds shut: whatever waits at it stays there until the test opens it. The fake
 * uses it instead of a delay, so "a request still running" lasts exactly as long as the test says,
 * however slow the machine.
 */
export class Gate {
  private readonly waiting: (() => void)[] = [];
  private shut = false;

  /** From now on, `pass()` waits. */
  close(): void {
    this.shut = true;
  }

  /** Lets everything waiting through, and keeps the door open. */
  open(): void {
    this.shut = false;
    for (const release of this.waiting.splice(0)) release();
  }

  /** How many are waiting at the door now. */
  get held(): number {
    return this.waiting.length;
  }

  /** Waits while the door is shut. */
  async pass(): Promise<void> {
    if (!this.shut) return;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}
