// A Redis that answers every script at once, and lock managers on it: what is left to measure is
// the lock's own JavaScript (bench:lock-breakdown's first figure).
import { EventEmitter } from "node:events";
import { createLockManager } from "../src/index.ts";
import { releaseScript } from "../src/layers/fair-waiting.ts";
import { lockManagerOptions } from "./clients.ts";

const STUB_OPS = 200_000;

/** A Redis that answers every script at once: only the lock's JavaScript is left to measure. */
export class StubRedis extends EventEmitter {
  #fence = 0;
  evalsha(sha: string): Promise<unknown> {
    return Promise.resolve(sha === releaseScript.sha ? 1 : [1, ++this.#fence]); // release : an acquire
  }
  eval(): Promise<unknown> {
    return Promise.resolve(1);
  }
  duplicate(): this {
    return this;
  }
}

/** A lock manager as bench:lock's clients have, on a stub Redis of its own. */
export const stubManager = (waitMs: number) =>
  createLockManager(lockManagerOptions(new StubRedis() as never, waitMs));

/** One lock+unlock on a stub manager: the module's JavaScript without its Redis commands. */
export async function stubLockUnlock(
  locks: ReturnType<typeof stubManager>,
  id: string,
): Promise<void> {
  const result = await locks.acquire({ kind: "bench", id });
  if (!result.ok) throw new Error("busy on a stub");
  await result.lease.release();
}

/** Microseconds of the lock's own JavaScript per lock+unlock, 32 callers at once (each its own manager), on stubs. */
export async function javascriptPerOp(waitMs: number): Promise<number> {
  const managers = Array.from({ length: 32 }, () => stubManager(waitMs));
  const run = async (ops: number) => {
    const started = performance.now();
    await Promise.all(
      managers.map(async (locks, c) => {
        for (let i = 0; i < ops / 32; i++) await stubLockUnlock(locks, `d:${c}:${i % 256}`);
      }),
    );
    return ((performance.now() - started) * 1000) / ops;
  };
  await run(STUB_OPS / 4); // warm-up
  const runs = [await run(STUB_OPS), await run(STUB_OPS), await run(STUB_OPS)];
  return Math.min(...runs);
}
