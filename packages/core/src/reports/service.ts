import type { Database } from "@orderbot/db";
import type { Clock } from "../deps.ts";
import { buildDailyReport, type DailyReport } from "./daily-report.ts";

export interface Reports {
  /** Today's figures so far (UTC), for an operator's /report. */
  today(options: { lowStockThreshold: number }): Promise<DailyReport>;
}

/** The worker posts the daily report once a day; /report shows the same figures on demand. */
export function createReports(deps: { db: Database; clock: Clock }): Reports {
  return {
    today: ({ lowStockThreshold }) =>
      buildDailyReport(deps.db, {
        day: deps.clock.now().toISOString().slice(0, 10),
        lowStockThreshold,
      }),
  };
}

export type { DailyReport };
