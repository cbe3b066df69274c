// The lock scripts run directly against the file's test Redis: each test takes keys of its own
// (one hash slot, as the manager builds them) and calls acquire, release and try on them.
import { createTestRedis, type TestRedis } from "./redis.ts";
import { tryScript } from "../src/core/scripts.ts";
import { acquireScript, releaseScript } from "../src/layers/fair-waiting.ts";
import { useOpened } from "./use-shared-redis.ts";

/** The prefix of each manager's wake-up channel. */
export const INBOX = "inbox:";

export interface ScriptKeys {
  lock: string;
  fence: string;
  queue: string;
  tickets: string;
}

/**
 * The file's test Redis `t` (opened in beforeAll, its keys deleted in afterAll) and script calls on
 * it. A waiter's claim on a hand-off lasts `claimMs` (the script's default when left out: the TTL).
 */
export function useLockScripts(options: { claimMs?: number } = {}) {
  const t: TestRedis = useOpened(createTestRedis, (opened) => opened.cleanup());
  let n = 0;
  const keys = (): ScriptKeys => {
    const lock = `{${t.namespace}:lock:script:${++n}}`;
    return { lock, fence: `${lock}:fence`, queue: `${lock}:queue`, tickets: `${lock}:tickets` };
  };
  const all = (k: ScriptKeys) => [k.lock, k.fence, k.queue, k.tickets];
  return {
    t,
    keys,
    /** A waiter's acquire: `token` waits for `manager`, `waitLeft` ms more. */
    acquire: (
      k: ScriptKeys,
      token: string,
      manager = "m",
      waitLeft = 10_000,
      ttl = 1500,
      claim = options.claimMs,
    ) =>
      acquireScript.run(t.redis, all(k), [
        token,
        ttl,
        60_000,
        manager,
        waitLeft,
        300_000,
        claim ?? ttl,
        INBOX,
      ]) as Promise<[number, number, number?]>,
    release: (k: ScriptKeys, token: string, leaving?: string) =>
      releaseScript.run(
        t.redis,
        all(k),
        leaving ? [token, INBOX, 60_000, leaving] : [token, INBOX, 60_000],
      ),
    tryTake: (k: ScriptKeys, token: string, ttl = 1500) =>
      tryScript.run(t.redis, [k.lock, k.fence], [token, ttl, 60_000]) as Promise<[number, number]>,
  };
}
