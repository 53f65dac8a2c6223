const sleepers = new Set<() => void>();

/** New work arrived in this process (a webhook stored): a worker loop sleeping here wakes now. */
export function wakeWorkers(): void {
  for (const wake of [...sleepers]) wake();
}

/** Sleeps `ms`, or until wakeWorkers is called. An unref'd timer does not keep a stopping process alive. */
export function sleepUnlessWoken(ms: number, keepProcessAlive: boolean): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      sleepers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    if (!keepProcessAlive) timer.unref();
    sleepers.add(wake);
  });
}
