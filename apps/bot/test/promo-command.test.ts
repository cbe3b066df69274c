// `/promo add` parsed without a bot: every option, the currencies, the days in the shop's zone,
// and what is refused.
import { describe, expect, it } from "vitest";
import { problemsText } from "@orderbot/conversation";
import { parsePromoAdd, startOfDay } from "../src/features/operator/promo-command.ts";

const parse = (args: string, currency = "XTR", zone = "UTC") => parsePromoAdd(args, currency, zone);

describe("parsePromoAdd", () => {
  it("reads a percentage with only the required uses", () => {
    expect(parse("sale10 10% uses=50")).toEqual({
      ok: true,
      value: {
        code: "sale10",
        kind: "PERCENT",
        value: 10,
        currency: null,
        totalUses: 50,
        perCustomer: 1,
        minTotalMinor: 0,
        startsAt: null,
        endsAt: null,
      },
    });
  });

  it("reads a fixed amount in the shop's currency or the one it names, and every option", () => {
    expect(parse("FIVE 5.00 uses=10 per=2 min=20.50", "USD")).toMatchObject({
      ok: true,
      value: { kind: "FIXED", value: 500, currency: "USD", perCustomer: 2, minTotalMinor: 2050 },
    });
    expect(parse("STARS 50XTR uses=3", "USD")).toMatchObject({
      ok: true,
      value: { kind: "FIXED", value: 50, currency: "XTR" },
    });
    expect(
      parse("NY 15% uses=100 FROM=2026-12-31 until=2027-01-01", "XTR", "Asia/Shanghai"),
    ).toMatchObject({
      ok: true,
      value: {
        // Midnight in Shanghai (UTC+8), and the end of the last day.
        startsAt: new Date("2026-12-30T16:00:00Z"),
        endsAt: new Date("2027-01-01T16:00:00Z"),
      },
    });
  });

  it("refuses what it cannot read, naming the problem", () => {
    // Typed as core's problems are, and worded by the conversation (English here).
    const problem = (args: string, locale: "en" | "zh" = "en") => {
      const parsed = parse(args);
      return parsed.ok ? "ok" : problemsText(locale, [parsed.problem]);
    };
    expect(problem("")).toBe("code: required");
    expect(problem("SALE")).toBe("amount: required");
    expect(problem("SALE 0% uses=5")).toBe("amount: at least 1");
    expect(problem("SALE 101% uses=5")).toBe("amount: at most 100");
    expect(problem("SALE 2.5 uses=5")).toBe("amount: not an amount in that currency");
    expect(problem("SALE ten uses=5")).toBe(
      "amount: a percentage such as 10% or an amount such as 5.00",
    );
    expect(problem("SALE 10%")).toBe("uses: required");
    expect(problem("SALE 10% uses=0")).toBe("uses: at least 1");
    expect(problem("SALE 10% uses=5 uses=6")).toBe("uses: uses appears twice");
    expect(problem("SALE 10% uses=5 per=0")).toBe("per: at least 1");
    expect(problem("SALE 10% uses=5 per=x")).toBe("per: must be a whole number");
    expect(problem("SALE 10% uses=5 min=abc")).toBe("min: not an amount in that currency");
    expect(problem("SALE 10% uses=5 color=red")).toBe("option: color=red is not known");
    expect(problem("SALE 10% uses=5 from=2026-13-01")).toBe("from: a day: YYYY-MM-DD");
    expect(problem("SALE 10% uses=5 until=31.12.2026")).toBe("until: a day: YYYY-MM-DD");
    expect(problem("SALE 10% uses=5 from=2026-12-02 until=2026-12-01")).toBe(
      "until: must come after from",
    );
    expect(problem("SALE 10% uses=5 from=2026-12-02 until=2026-12-01", "zh")).toBe(
      "结束：必须晚于 开始",
    );
  });
});

describe("startOfDay", () => {
  it("is the zone's midnight, across a daylight-saving change", () => {
    expect(startOfDay("2026-03-29", "Europe/Berlin")).toEqual(new Date("2026-03-28T23:00:00Z"));
    expect(startOfDay("2026-03-29", "Europe/Berlin", true)).toEqual(
      new Date("2026-03-29T22:00:00Z"),
    );
    expect(startOfDay("2026-02-29", "UTC")).toBeNull();
  });
});
