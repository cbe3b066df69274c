import type { Database } from "@orderbot/db";
import type { Clock } from "../deps.ts";
import { buildDailyReport, dayIn, type DailyReport } from "./daily-report.ts";

export type Reports = ReturnType<typeof createReports>;

/** The worker posts the daily report once a day; /report shows the same figures on demand. */
export function createReports(deps: { db: Database; clock: Clock; timeZone: string }) {
  return {
    /** Today's figures so far (the shop's day), for an operator's /report. */
    today: ({ lowStockThreshold }: { lowStockThreshold: number }): Promise<DailyReport> =>
      buildDailyReport(deps.db, {
        day: dayIn(deps.timeZone, deps.clock.now()),
        timeZone: deps.timeZone,
        lowStockThreshold,
      }),
  };
}

export type { DailyReport };
