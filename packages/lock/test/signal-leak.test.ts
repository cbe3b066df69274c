// Waited acquires without the fair-waiting layer listen to the caller's signal and the manager's
// closing signal while they back off. Each must leave nothing on those long-lived signals: Node
// 20's AbortSignal.any keeps an entry per derived signal on its sources (a leak per acquire).
import { expect, it } from "vitest";
import { createLockManager } from "../src/index.ts";
import { abortListeners, fastClient, HASH_KEY, KINDS, ready } from "./support.ts";
import { useSharedRedis } from "./use-shared-redis.ts";

const fx = useSharedRedis();

/** The signals Node.js keeps on `signal` for those derived from it by AbortSignal.any. */
function dependants(signal: AbortSignal): Set<unknown> | undefined {
  const symbol = Object.getOwnPropertySymbols(signal).find(
    (s) => s.description === "kDependantSignals",
  );
  return symbol && (signal as unknown as Record<symbol, Set<unknown>>)[symbol];
}

it("leaves no derived signal or listener on the caller's signal after 40 waited acquires", async () => {
  const probe = new AbortController(); // shows that this Node.js keeps derived signals where looked
  const derived = AbortSignal.any([probe.signal]);
  expect(dependants(probe.signal)?.size).toBe(1);
  expect(derived.aborted).toBe(false);

  const own = fastClient(fx.test.url);
  await ready(own);
  const options = { namespace: fx.test.namespace, hashKey: HASH_KEY, kinds: KINDS };
  const locks = createLockManager({ ...options, redis: own });
  const holder = await fx.hold("leak-probe");
  const caller = new AbortController();
  for (let i = 0; i < 40; i++) {
    const result = await locks.acquire(
      { kind: "order", id: "leak-probe" },
      {
        waitMs: 2,
        signal: caller.signal,
      },
    );
    expect(result.ok).toBe(false);
  }
  expect(dependants(caller.signal)?.size ?? 0).toBe(0);
  expect(abortListeners(caller.signal)).toBe(0);
  await holder.release();
  await locks.close();
  own.disconnect();
});
