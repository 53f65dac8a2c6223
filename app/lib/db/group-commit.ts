import { config } from "../config/env.server";
interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items that arrive while a write is running go together in the next write, so a
 * burst costs one statement (and one commit) per batch instead of one per item. The first item
 * after a quiet spell is written at once; the window is the length of the write before it. Each
 * caller's promise settles only when the write that holds its item has committed, or failed.
 */
export class GroupCommit<T> {
  private waiting: Waiting<T>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 500,
    private readonly windowMs = config().INTAKE_COMMIT_WINDOW_MS,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // Deliveries read in the same turn of the event loop join this batch.
      if (!this.writing) {
        this.writing = true;
        if (this.windowMs > 0) setTimeout(() => void this.drain(), this.windowMs);
        else setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((w) => w.item));
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.writing = false;
  }
}
