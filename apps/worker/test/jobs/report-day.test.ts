// Which of the shop's days the daily report is due for: the day before, once its hour has come,
// both in the shop's time zone.
import { describe, expect, it } from "vitest";
import { reportDay } from "../../src/jobs/daily-report.ts";

describe("reportDay", () => {
  it("is the shop's yesterday, from its hour on", () => {
    // Midnight in Shanghai is 16:00 UTC.
    expect(reportDay(new Date("2026-03-01T15:59:00Z"), 0, "Asia/Shanghai")).toBe("2026-02-28");
    expect(reportDay(new Date("2026-03-01T16:00:00Z"), 0, "Asia/Shanghai")).toBe("2026-03-01");
    // With REPORT_HOUR=8: 08:00 in Shanghai is 00:00 UTC.
    expect(reportDay(new Date("2026-03-01T23:59:00Z"), 8, "Asia/Shanghai")).toBe("2026-02-28");
    expect(reportDay(new Date("2026-03-02T00:00:00Z"), 8, "Asia/Shanghai")).toBe("2026-03-01");
    expect(reportDay(new Date("2026-03-01T00:00:00Z"), 0, "UTC")).toBe("2026-02-28");
    // Across a month and a year.
    expect(reportDay(new Date("2027-01-01T00:30:00Z"), 0, "UTC")).toBe("2026-12-31");
  });
});
