import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@orderbot/db";

export interface HeldLocks {
  /** Runs `sql` in the blocking transaction, then commits it, releasing the row locks (once; later calls wait). */
  finish(sql?: string): Promise<void>;
}

/**
 * Holds row locks (`SELECT ... FOR UPDATE`) in a transaction of its own until `finish`: a way to
 * park another transaction at a chosen statement, to interleave things deterministically.
 */
export async function holdRowLocks(db: Database, lockSql: string): Promise<HeldLocks> {
  let release!: (sql: string | undefined) => void;
  const released = new Promise<string | undefined>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(lockSql);
      locked();
      const sql = await released;
      if (sql) await tx.$executeRawUnsafe(sql);
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  await Promise.race([isLocked, done]);
  return {
    async finish(sql) {
      release(sql);
      await done;
    },
  };
}

/** Resolves once `count` sessions of this database are waiting for a row or table lock. */
export async function waitForLockWaiters(db: Database, count = 1): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((row?.n ?? 0) >= count) return;
    await sleep(25);
  }
  throw new Error(`no ${count} session(s) waiting for a lock after 10 s`);
}
