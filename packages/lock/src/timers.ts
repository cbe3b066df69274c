// Every timer the manager starts goes through here: unref'd, so a lock never keeps a process
// alive, and counted, so a test can prove an aborted wait or a released lease left none behind.

export type TimerHandle = ReturnType<typeof setTimeout>;

export class Timers {
  #active = new Set<TimerHandle>();

  /** Runs `fn` once after `ms`; the timer neither keeps the process alive nor outlives `clear`. */
  set(fn: () => void, ms: number): TimerHandle {
    const handle = setTimeout(
      () => {
        this.#active.delete(handle);
        fn();
      },
      Math.max(0, ms),
    );
    handle.unref();
    this.#active.add(handle);
    return handle;
  }

  clear(handle: TimerHandle | undefined): void {
    if (handle === undefined) return;
    clearTimeout(handle);
    this.#active.delete(handle);
  }

  get count(): number {
    return this.#active.size;
  }
}
