import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls `probe` until it returns a value other than undefined (errors count as "not yet"), or
 * fails after `timeoutMs` with the last error. For waiting on real servers (a failover, a cluster
 * agreeing on its slots), never for timing assertions.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`,
      );
    }
    await sleep(intervalMs);
  }
}
