// The update dedupe's home (src/updates/pipeline.ts, with the processed_updates record): one
// update delivered to four replicas at once, each with its own Redis and PostgreSQL connections,
// runs once; the re-deliveries Telegram sends after the 503s run nothing. The same deliveries
// checked against the record, then run (a barrier between, so the race is certain), run it four
// times: the check is not vacuous.
import { afterAll, describe, expect, it } from "vitest";
import type { Update } from "grammy/types";
import { LOCK_KINDS } from "@orderbot/core";
import { createDatabase, createProcessedUpdates, type Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { barrier, shopLockManager, useTestDatabase, useTestRedis } from "@orderbot/testkit";
import type { UpdateOutcome } from "../../src/updates/pipeline.ts";
import { testPipeline } from "../support/pipeline.ts";
import { privateText } from "../support/updates.ts";

const BOT_ID = 4343n;
const REPLICAS = 4;
const testDb = useTestDatabase();
const t = useTestRedis();
const opened: { db: Database; redis: typeof t.redis; locks: LockManager }[] = [];
afterAll(async () => {
  for (const { db, redis, locks } of opened) {
    await locks.close();
    redis.disconnect();
    await db.$disconnect();
  }
});

function replica(handle: (update: Update) => Promise<void>) {
  const db = createDatabase({ url: testDb.url, poolMax: 2 });
  const redis = t.redis.duplicate();
  const locks = shopLockManager({
    redis,
    namespace: t.namespace,
    kinds: LOCK_KINDS,
    hashKey: "dedupe-test-0123456789",
  });
  opened.push({ db, redis, locks });
  const pipeline = testPipeline({
    botId: BOT_ID,
    db,
    locks,
    redis,
    namespace: t.namespace,
    limit: 1_000,
    handle,
  });
  return { db, pipeline };
}

describe("one update delivered to four replicas at once", () => {
  it("runs once, and never again when Telegram re-delivers it", async () => {
    const runs: number[] = [];
    let settled = 0;
    let othersSettled!: () => void;
    const others = new Promise<void>((resolve) => (othersSettled = resolve));
    // The handler holds on until the other deliveries have answered (bounded, should it never be).
    const handle = async (update: Update) => {
      runs.push(update.update_id);
      let cap: NodeJS.Timeout | undefined;
      await Promise.race([others, new Promise((resolve) => (cap = setTimeout(resolve, 2_000)))]);
      clearTimeout(cap);
    };
    const replicas = Array.from({ length: REPLICAS }, () => replica(handle));
    const deliver = () =>
      Promise.all(
        replicas.map(({ pipeline }) =>
          pipeline(privateText(7001, "/start")).finally(() => {
            if (++settled === REPLICAS - 1) othersSettled();
          }),
        ),
      );
    const first = await deliver();
    expect(first.filter((o) => o === "handled")).toHaveLength(1);
    expect(first.filter((o) => o === "in-progress")).toHaveLength(REPLICAS - 1);
    // Telegram re-sends what got a 503; a re-delivery never runs the update again.
    const later = [...(await deliver()), ...(await deliver()), ...(await deliver())];
    expect(later.filter((o) => o !== "duplicate" && o !== "in-progress")).toEqual([]);
    expect(later).toContain("duplicate");
    expect(runs).toEqual([7001]);
  });

  it("runs four times when each replica checks the record, then runs and records it", async () => {
    const runs: number[] = [];
    const allChecked = barrier(REPLICAS);
    const outcomes = await Promise.all(
      Array.from({ length: REPLICAS }, async (): Promise<UpdateOutcome> => {
        const processed = createProcessedUpdates(replica(async () => {}).db);
        if (await processed.has(BOT_ID, 7002)) return "duplicate";
        await allChecked(); // every replica has checked before any runs
        runs.push(7002);
        await processed.mark(BOT_ID, 7002);
        return "handled";
      }),
    );
    expect(outcomes).toEqual(Array.from({ length: REPLICAS }, () => "handled"));
    expect(runs).toHaveLength(REPLICAS);
  });
});
