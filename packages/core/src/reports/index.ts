// @orderbot/core/reports: the daily report.
// The worker posts the daily report once a day; an operator's /report shows today's on demand.
export { buildDailyReport, dayIn, type DailyReport } from "./daily-report.ts";
export { createReports, type Reports } from "./service.ts";
