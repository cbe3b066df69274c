import type { Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { formatMoney } from "@orderbot/conversation";
import { enqueueOutbox, outboxHas } from "@orderbot/core/outbox";
import { buildDailyReport, dayIn, type DailyReport } from "@orderbot/core/reports";
import type { OperatorChats } from "../operators/chats.ts";
import type { Job } from "./job.ts";

const HOUR_MS = 3_600_000;

/**
 * The shop's day whose report is due at `now`: day D's report goes out at the first run after
 * `hour` o'clock on day D+1, both in `timeZone`. (A worker down for all of D+1 skips D: an old
 * report is of little use.)
 */
export function reportDay(now: Date, hour: number, timeZone: string): string {
  const today = dayIn(timeZone, new Date(now.getTime() - hour * HOUR_MS));
  const yesterday = new Date(`${today}T00:00:00.000Z`);
  yesterday.setUTCDate(yesterday.getUTCDate() - 1);
  return yesterday.toISOString().slice(0, 10);
}

export const reportKey = (chatId: bigint, day: string): string => `report:${chatId}:${day}`;

export function reportParams(report: DailyReport): Record<string, string | number> {
  const revenue = report.revenue
    .map((r) => `${formatMoney(r.amountMinor, r.currency)} (${r.payments})`)
    .join(", ");
  const lowStock = report.lowStock.map((p) => `${p.sku}: ${p.stock}`).join(", ");
  return {
    day: report.day,
    zone: report.timeZone,
    placed: report.ordersPlaced,
    expired: report.ordersExpired,
    cancelled: report.ordersCancelled,
    revenue: revenue || "-",
    refunded: report.refunded,
    refundsPending: report.refundsPending,
    deadLetters: report.deadLetters,
    lowStock: lowStock || "-",
  };
}

export interface DailyReportDeps {
  db: Database;
  locks: LockManager;
  operatorChats: OperatorChats;
  intervalMs: number;
  /** REPORT_HOUR, of the shop's day. */
  hour: number;
  /** SHOP_TIME_ZONE: the report's day is the shop's. */
  timeZone: string;
  lowStockThreshold: number;
  clock?: () => Date;
}

/**
 * daily-report: once per day per operator group. The `report` lock (per group and day) keeps two
 * workers from building the same report at once; the outbox dedupe key `report:<chat>:<day>`
 * makes "sent once" a database fact even if two did.
 */
export function dailyReportJob(deps: DailyReportDeps): Job {
  const clock = deps.clock ?? (() => new Date());
  return {
    name: "daily-report",
    intervalMs: deps.intervalMs,
    async run({ signal, runId }) {
      const day = reportDay(clock(), deps.hour, deps.timeZone);
      let queued = 0;
      let busy = 0;
      for (const chatId of await deps.operatorChats()) {
        if (signal.aborted) break;
        const key = reportKey(chatId, day);
        if (await outboxHas(deps.db, key)) continue;
        const outcome = await deps.locks.withLock(
          { kind: "report", id: `${chatId}:${day}` },
          async ({ signal: lease }) => {
            const report = await buildDailyReport(deps.db, {
              day,
              timeZone: deps.timeZone,
              lowStockThreshold: deps.lowStockThreshold,
            });
            if (lease.aborted) return 0;
            return enqueueOutbox(deps.db, [
              {
                dedupeKey: key,
                chatId,
                method: "notify",
                payload: { template: "operator-daily-report", params: reportParams(report) },
              },
            ]);
          },
          { requestId: runId },
        );
        if (outcome.status === "ok") queued += outcome.value;
        else busy++;
      }
      return { queued, busy };
    },
  };
}
