import { describe, expect, it } from "vitest";
import { createI18n } from "../src/bot/i18n.ts";
import { formatClock, formatDuration } from "../src/format/time.ts";

const i18n = createI18n();
const t = (locale: "en" | "zh") =>
  ((key: string, vars?: Record<string, string | number>) =>
    i18n.t(locale, key, vars)) as Parameters<typeof formatDuration>[0];

describe("times people can read", () => {
  it("shows a clock time in the shop's zone, naming it", () => {
    const at = new Date("2026-12-02T20:58:00Z");
    expect(formatClock(at, "en", "UTC")).toBe("20:58 (UTC)");
    expect(formatClock(at, "en", "Asia/Shanghai")).toBe("04:58 (Asia/Shanghai)");
    expect(formatClock(at, "zh", "Asia/Shanghai")).toBe("04:58（Asia/Shanghai）");
  });

  it("says how long is left in whole minutes or hours, rounded up", () => {
    expect(formatDuration(t("en"), 15 * 60_000)).toBe("15 minutes");
    expect(formatDuration(t("en"), 60_000 - 1)).toBe("1 minute");
    expect(formatDuration(t("en"), 0)).toBe("less than a minute");
    expect(formatDuration(t("en"), 3 * 3_600_000)).toBe("3 hours");
    expect(formatDuration(t("zh"), 15 * 60_000)).toBe("15 分钟");
  });
});
