// A Redis that answers every script at once, and lock managers on it: what is left to measure is
// the lock's own JavaScript (bench:lock-breakdown's first figure).
import { EventEmitter } from "node:events";
import { createLockManager } from "../src/index.ts";
import { releaseScript } from "../src/layers/fair-waiting.ts";
import { lockManagerOptions } from "./clients.ts";

const INSTANT_OPS = 200_000;

/** A Redis that answers every script at once: only the lock's JavaScript is left to measure. */
export class InstantRedis extends EventEmitter {
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

/** A lock manager as bench:lock's clients have, on an instant Redis of its own. */
export const instantManager = (waitMs: number) =>
  createLockManager(lockManagerOptions(new InstantRedis() as never, waitMs));

/** One lock+unlock on an instant manager: the module's JavaScript without its Redis commands. */
export async function instantLockUnlock(
  locks: ReturnType<typeof instantManager>,
  id: string,
): Promise<void> {
  const result = await locks.acquire({ kind: "bench", id });
  if (!result.ok) throw new Error("busy on an instant Redis");
  await result.lease.release();
}

/** Microseconds of the lock's own JavaScript per lock+unlock, 32 callers at once (each its own manager), on instant Redis clients. */
export async function javascriptPerOp(waitMs: number): Promise<number> {
  const managers = Array.from({ length: 32 }, () => instantManager(waitMs));
  const run = async (ops: number) => {
    const started = performance.now();
    await Promise.all(
      managers.map(async (locks, c) => {
        for (let i = 0; i < ops / 32; i++) await instantLockUnlock(locks, `d:${c}:${i % 256}`);
      }),
    );
    return ((performance.now() - started) * 1000) / ops;
  };
  await run(INSTANT_OPS / 4); // warm-up
  const runs = [await run(INSTANT_OPS), await run(INSTANT_OPS), await run(INSTANT_OPS)];
  return Math.min(...runs);
}
