import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@orderbot/db";
import type { FakeTelegram } from "@orderbot/fake-telegram";

export interface SettleOptions {
  kit: FakeTelegram;
  db: Database;
  /** Give up waiting after this long (ms); the invariants then report what is left. */
  timeoutMs: number;
  onWait?: (pending: readonly string[]) => void;
  /**
   * False: events and their deliveries may still wait. During an upgrade's overlap the relay may
   * be the previous release's, which sends none (docs/operations.md, Upgrades).
   */
  events?: boolean;
}

export interface SettleResult {
  settled: boolean;
  /** What was still going on when the wait gave up. */
  pending: string[];
  waitedMs: number;
}

async function backlog(kit: FakeTelegram, db: Database, events: boolean): Promise<string[]> {
  const [row] = await db.$queryRaw<
    { reserved: number; outbox: number; refunds: number; parked: number }[]
  >`
    SELECT (SELECT count(*) FROM orders WHERE status = 'RESERVED')::int AS reserved,
           ((SELECT count(*) FROM outbox_messages WHERE status = 'PENDING')
          + (SELECT count(*) FROM deliveries WHERE status = 'PENDING' AND ${events})
          + (SELECT count(*) FROM events WHERE expanded_at IS NULL AND ${events}))::int AS outbox,
           (SELECT count(*) FROM payments WHERE status = 'REFUND_PENDING')::int AS refunds,
           (SELECT count(*) FROM parked_updates)::int AS parked`;
  const pending: string[] = [];
  const updates = kit.pendingUpdates.length;
  if (updates > 0) pending.push(`${updates} updates in delivery`);
  // Confirmed to Telegram, so not in delivery, but not handled yet: the poller still retries them.
  if (row && row.parked > 0) pending.push(`${row.parked} parked updates not yet handled`);
  if (row && row.reserved > 0) pending.push(`${row.reserved} reservations not yet expired`);
  if (row && row.outbox > 0) pending.push(`${row.outbox} outbox messages pending`);
  if (row && row.refunds > 0) pending.push(`${row.refunds} refunds pending`);
  return pending;
}

/**
 * Waits until the shop is quiet after a load: every update delivered (or given up) and none left
 * parked, every reservation expired by the worker, the outbox and the refunds drained. Bounded:
 * the checker then names whatever did not settle. Database errors while it waits (PostgreSQL restarting) count
 * as "not yet".
 */
export async function settle(options: SettleOptions): Promise<SettleResult> {
  const started = Date.now();
  let pending: string[] = ["not checked yet"];
  while (Date.now() - started < options.timeoutMs) {
    pending = await backlog(options.kit, options.db, options.events ?? true).catch(
      (error: unknown) => [`database: ${String(error).slice(0, 80)}`],
    );
    if (pending.length === 0) return { settled: true, pending, waitedMs: Date.now() - started };
    options.onWait?.(pending);
    await sleep(250);
  }
  return { settled: false, pending, waitedMs: Date.now() - started };
}
