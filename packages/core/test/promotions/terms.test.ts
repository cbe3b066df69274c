// The discount arithmetic and the rules a code is checked by, without a database.
import { describe, expect, it } from "vitest";
import {
  discountFor,
  normaliseCode,
  priceWithCode,
  type PromoTerms,
} from "../../src/promotions/index.ts";

const NOW = new Date("2026-12-01T12:00:00Z");
const terms = (over: Partial<PromoTerms> = {}): PromoTerms => ({
  code: "SALE10",
  kind: "PERCENT",
  value: 10,
  currency: null,
  minTotalMinor: 0,
  startsAt: null,
  endsAt: null,
  remainingUses: 5,
  perCustomer: 1,
  active: true,
  ...over,
});
const cart = (subtotalMinor: number, currency = "XTR") => ({ subtotalMinor, currency, now: NOW });

describe("discountFor", () => {
  it("rounds a percentage down, in the shop's favour", () => {
    expect(discountFor({ kind: "PERCENT", value: 10 }, 15)).toBe(1);
    expect(discountFor({ kind: "PERCENT", value: 10 }, 19)).toBe(1);
    expect(discountFor({ kind: "PERCENT", value: 10 }, 20)).toBe(2);
    expect(discountFor({ kind: "PERCENT", value: 33 }, 1000)).toBe(330);
    expect(discountFor({ kind: "PERCENT", value: 100 }, 1234)).toBe(1234);
    // The largest total an order can have, without floating-point error.
    expect(discountFor({ kind: "PERCENT", value: 7 }, 2_147_483_647)).toBe(150_323_855);
  });

  it("takes a fixed amount off, never more than the subtotal", () => {
    expect(discountFor({ kind: "FIXED", value: 500 }, 2000)).toBe(500);
    expect(discountFor({ kind: "FIXED", value: 500 }, 300)).toBe(300);
  });
});

describe("priceWithCode", () => {
  it("prices a cart with the code", () => {
    expect(priceWithCode(terms(), cart(200))).toEqual({
      status: "ok",
      discountMinor: 20,
      totalMinor: 180,
    });
  });

  it("says why a code cannot be used", () => {
    const reason = (t: PromoTerms, c = cart(200), held?: number) => {
      const r = priceWithCode(t, held === undefined ? c : { ...c, heldByCustomer: held });
      return r.status === "promo-refused" ? r.reason : "ok";
    };
    expect(reason(terms({ active: false }))).toBe("inactive");
    expect(reason(terms({ startsAt: new Date(NOW.getTime() + 1) }))).toBe("not-started");
    expect(reason(terms({ endsAt: NOW }))).toBe("expired");
    expect(reason(terms({ endsAt: new Date(NOW.getTime() + 1) }))).toBe("ok");
    expect(reason(terms({ remainingUses: 0 }))).toBe("used-up");
    expect(reason(terms(), cart(200), 1)).toBe("used-by-you");
    expect(reason(terms({ perCustomer: 2 }), cart(200), 1)).toBe("ok");
    expect(reason(terms({ minTotalMinor: 201 }))).toBe("below-minimum");
    expect(reason(terms({ minTotalMinor: 200 }))).toBe("ok");
    expect(reason(terms({ kind: "FIXED", value: 100, currency: "USD" }))).toBe("currency");
  });

  it("names the minimum, including the smallest cart a percentage takes anything off", () => {
    expect(priceWithCode(terms({ minTotalMinor: 500 }), cart(200))).toMatchObject({
      reason: "below-minimum",
      minTotalMinor: 500,
      currency: "XTR",
    });
    // 10% of 9 ⭐ rounds down to nothing: a use would be spent for no discount.
    expect(priceWithCode(terms(), cart(9))).toMatchObject({
      reason: "below-minimum",
      minTotalMinor: 10,
    });
  });

  it("refuses a total below what one invoice may ask", () => {
    // Stars: at least 1 ⭐; USD: at least 1.00.
    expect(priceWithCode(terms({ value: 100 }), cart(50))).toMatchObject({
      reason: "total-too-small",
    });
    expect(
      priceWithCode(terms({ kind: "FIXED", value: 150, currency: "USD" }), cart(200, "USD")),
    ).toMatchObject({ reason: "total-too-small" });
    expect(
      priceWithCode(terms({ kind: "FIXED", value: 100, currency: "USD" }), cart(200, "USD")),
    ).toEqual({ status: "ok", discountMinor: 100, totalMinor: 100 });
  });
});

describe("normaliseCode", () => {
  it("upper-cases what the customer typed and refuses what cannot be a code", () => {
    expect(normaliseCode(" sale10 ")).toBe("SALE10");
    expect(normaliseCode("new-year_26")).toBe("NEW-YEAR_26");
    expect(normaliseCode("ab")).toBeNull();
    expect(normaliseCode("-SALE")).toBeNull();
    expect(normaliseCode("SALE 10")).toBeNull();
    expect(normaliseCode("折扣码")).toBeNull();
    expect(normaliseCode("A".repeat(33))).toBeNull();
  });
});
