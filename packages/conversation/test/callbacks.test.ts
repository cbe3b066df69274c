import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CALLBACK_DATA_MAX_BYTES,
  callbacks,
  fitSearchQuery,
  SEARCH_QUERY_MAX_BYTES,
} from "../src/index.ts";

/** A product card's place: the product, its quantity, and the catalog page it was opened from. */
const card = (productId: number, qty: number, categoryId: number, page: number) => ({
  productId,
  qty,
  categoryId,
  page,
});

describe("callback data codecs", () => {
  it("give every button its own prefix, so that no press reaches another button's handler", () => {
    const prefixes = Object.values(callbacks).map((codec) => codec.prefix);
    const repeated = prefixes.filter((prefix, i) => prefixes.indexOf(prefix) !== i);
    expect(repeated).toEqual([]);
  });

  it("round-trips every kind of button", () => {
    expect(callbacks.catalogPage.decode(callbacks.catalogPage.encode({ page: 3 }))).toEqual({
      page: 3,
    });
    expect(callbacks.product.encode({ productId: 7, qty: 2, categoryId: 0, page: 1 })).toBe(
      "p:7:2:0:1",
    );
    expect(callbacks.product.decode("p:7:2:4:1")).toEqual(card(7, 2, 4, 1));
    expect(callbacks.order.decode("o:12:5:0:2")).toEqual(card(12, 5, 0, 2));
    expect(callbacks.category.decode("k:3:2")).toEqual({ categoryId: 3, page: 2 });
    expect(callbacks.cartAdd.decode("a:7:3:0:1")).toEqual(card(7, 3, 0, 1));
    expect(callbacks.cartSet.decode("q:7:0")).toEqual({ productId: 7, quantity: 0 });
    expect(callbacks.checkout.decode("b:12")).toEqual({ revision: 12 });
    expect(callbacks.cartEmpty.decode("e:12")).toEqual({ revision: 12 });
    expect(callbacks.searchPage.decode("f:2:绿茶 green")).toEqual({ page: 2, query: "绿茶 green" });
    expect(callbacks.searchPage.decode("f:1000:tea")).toEqual({ page: 1000, query: "tea" });
    expect(callbacks.pay.decode("y:ABCD2345")).toEqual({ orderId: "ABCD2345" });
    expect(callbacks.cancel.decode("x:ABCD2345")).toEqual({ orderId: "ABCD2345" });
    expect(callbacks.language.decode("l:zh")).toEqual({ locale: "zh" });
    expect(callbacks.setting.decode("s:lowStockThreshold:5:4")).toEqual({
      key: "lowStockThreshold",
      value: "5",
      version: 4,
    });
  });

  it.each([
    ["another kind's data", callbacks.order, "p:7:2:1"],
    ["page zero", callbacks.catalogPage, "c:0"],
    ["a missing field", callbacks.order, "o:7:1:1"],
    ["an extra field", callbacks.order, "o:7:2:0:1:1"],
    ["a zero quantity", callbacks.order, "o:7:0:0:1"],
    ["a negative quantity", callbacks.order, "o:7:-1:0:1"],
    ["a quantity over 99", callbacks.order, "o:7:100:0:1"],
    ["a fractional quantity", callbacks.order, "o:7:1.5:0:1"],
    ["a leading zero", callbacks.order, "o:07:1:0:1"],
    ["an id past int4", callbacks.order, "o:2147483648:1:0:1"],
    ["a non-numeric id", callbacks.order, "o:abc:1:0:1"],
    ["a public id with ambiguous letters", callbacks.pay, "y:ABCD0O1I"],
    ["a lowercase public id", callbacks.pay, "y:abcd2345"],
    ["a SQL-ish public id", callbacks.cancel, "x:1' OR '1'='1"],
    ["an unknown locale", callbacks.language, "l:de"],
    ["an unknown setting", callbacks.setting, "s:admin:1:0"],
    ["a setting value with odd characters", callbacks.setting, "s:language:EN;:0"],
    ["data over 64 bytes", callbacks.pay, `y:${"A".repeat(70)}`],
    ["a search query with a colon", callbacks.searchPage, "f:1:tea:cup"],
    ["a search query with a double space", callbacks.searchPage, "f:1:tea  cup"],
    ["a search page past the last a search serves", callbacks.searchPage, "f:1001:tea"],
  ])("rejects %s", (_label, codec, data) => {
    expect(codec.decode(data)).toBeNull();
  });

  it("refuses to encode values that would not decode", () => {
    expect(() => callbacks.order.encode({ productId: 7, qty: 0, categoryId: 0, page: 1 })).toThrow(
      RangeError,
    );
    expect(() => callbacks.pay.encode({ orderId: "x".repeat(80) })).toThrow(RangeError);
  });

  it("never accepts arbitrary strings it did not produce, and every encoding fits in 64 bytes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (data) => {
        for (const codec of Object.values(callbacks)) {
          const decoded = codec.decode(data);
          // Whatever decodes must be exactly what encoding those values produces.
          if (decoded !== null) expect(codec.encode(decoded as never)).toBe(data);
        }
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_147_483_647 }),
        fc.integer({ min: 1, max: 99 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 1, max: 999_999 }),
        (productId, qty, categoryId, page) => {
          const data = callbacks.product.encode({ productId, qty, categoryId, page });
          expect(Buffer.byteLength(data)).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
          expect(callbacks.product.decode(data)).toEqual({ productId, qty, categoryId, page });
        },
      ),
    );
  });
});

describe("a search's words in its next-page button", () => {
  it("keeps the query within what the button can carry, whatever core would search", () => {
    const query = fitSearchQuery(`${"茶".repeat(30)} tea`);
    expect(query).toBe("茶".repeat(13));
    expect(Buffer.byteLength(query)).toBeLessThanOrEqual(SEARCH_QUERY_MAX_BYTES);
    const data = callbacks.searchPage.encode({ page: 1000, query });
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
    expect(fitSearchQuery("Pu'er, CAKE! cake")).toBe("pu er cake");
    expect(fitSearchQuery("green tea oolong black white yellow")).toBe(
      "green tea oolong black white",
    );
  });
});
