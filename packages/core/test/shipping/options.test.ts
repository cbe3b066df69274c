import { describe, expect, it } from "vitest";
import { shopSettingsSchema } from "../../src/index.ts";
import {
  maskAddress,
  maskEmail,
  maskName,
  maskPhone,
  optionsFor,
  shippingCharge,
  shippingOptionsSchema,
} from "../../src/shipping/index.ts";

const OPTIONS = shippingOptionsSchema.parse([
  { id: "pickup", title: "Pickup in store", price: 0, countries: ["DE"] },
  { id: "courier", title: "Courier", price: 500, countries: ["DE", "at"] },
  { id: "post", title: "Post", price: 900, countries: "*" },
]);

describe("shipping options", () => {
  it("offers the options whose countries include the address's, in configuration order", () => {
    expect(optionsFor(OPTIONS, "DE").map((o) => o.id)).toEqual(["pickup", "courier", "post"]);
    expect(optionsFor(OPTIONS, "at").map((o) => o.id)).toEqual(["courier", "post"]);
    expect(optionsFor(OPTIONS, "FR").map((o) => o.id)).toEqual(["post"]);
    const noPost = OPTIONS.filter((o) => o.id !== "post");
    expect(optionsFor(noPost, "US")).toEqual([]);
  });

  it("refuses a configuration with duplicate ids, a bad country or a negative price", () => {
    const bad = [
      [
        { id: "a", title: "A", price: 1 },
        { id: "a", title: "B", price: 2 },
      ],
      [{ id: "a", title: "A", price: 1, countries: ["DEU"] }],
      [{ id: "a", title: "A", price: -1 }],
      [{ id: "a b", title: "A", price: 1 }],
      [{ id: "a", title: "A", price: 1, countries: [] }],
    ];
    for (const options of bad) expect(shippingOptionsSchema.safeParse(options).success).toBe(false);
    const setting = { SHIPPING_OPTIONS: JSON.stringify(bad[0]) };
    expect(shopSettingsSchema.safeParse(setting).success).toBe(false);
  });
});

describe("shippingCharge", () => {
  const physical = { physical: true, goodsMinor: 2_000 };
  /** The physical order, shipped by `shippingOptionId` to an address in `country_code`. */
  const shippedBy = (shippingOptionId: string, country_code: string) => ({
    ...physical,
    shippingOptionId,
    address: { country_code },
  });

  it("is the goods plus the configured price of the option chosen, for an address it ships to", () => {
    expect(shippingCharge(OPTIONS, shippedBy("courier", "AT"))).toEqual({
      ok: true,
      optionId: "courier",
      shippingMinor: 500,
      payableMinor: 2_500,
    });
    expect(shippingCharge(OPTIONS, shippedBy("pickup", "de"))).toMatchObject({
      ok: true,
      payableMinor: 2_000,
    });
  });

  it("refuses a missing or unknown option, or one that does not ship to the address", () => {
    expect(shippingCharge(OPTIONS, physical)).toEqual({ ok: false, reason: "shipping-missing" });
    expect(shippingCharge(OPTIONS, shippedBy("drone", "DE"))).toEqual({
      ok: false,
      reason: "shipping-unknown-option",
    });
    expect(shippingCharge(OPTIONS, shippedBy("courier", "FR"))).toEqual({
      ok: false,
      reason: "shipping-not-to-address",
    });
    expect(shippingCharge(OPTIONS, { ...physical, shippingOptionId: "courier" })).toEqual({
      ok: false,
      reason: "shipping-not-to-address",
    });
  });

  it("charges a digital order its goods alone, and refuses shipping on it", () => {
    expect(shippingCharge(OPTIONS, { physical: false, goodsMinor: 50 })).toEqual({
      ok: true,
      optionId: null,
      shippingMinor: 0,
      payableMinor: 50,
    });
    expect(
      shippingCharge(OPTIONS, { physical: false, goodsMinor: 50, shippingOptionId: "post" }),
    ).toEqual({ ok: false, reason: "shipping-missing" });
  });
});

describe("maskPhone", () => {
  it("keeps the country prefix and the last two digits only", () => {
    expect(maskPhone("+49 151 2345 6767")).toBe("+49 ••• ••• 67");
    expect(maskPhone("015123456781")).toBe("01 ••• ••• 81");
    expect(maskPhone("123")).toBe("•••");
    expect(maskPhone("+49 151 2345 6767")).not.toContain("2345");
  });
});

describe("the buyer's other details, masked as the phone", () => {
  it("keeps each name's first letter, an e-mail's first letters and last label, a city", () => {
    expect(maskName("Ann  Lee")).toBe("A••• L•••");
    expect(maskName("👩‍👩‍👧 Lee")).toBe("👩‍👩‍👧••• L•••");
    expect(maskEmail("ann.lee@example.com")).toBe("a•••@e•••.com");
    expect(maskEmail("not-an-address")).toBe("•••");
    const address = {
      country_code: "de",
      state: "",
      city: "Berlin",
      street_line1: "Invalidenstr. 1",
      street_line2: "",
      post_code: "10115",
    };
    expect(maskAddress(address)).toBe("•••, Berlin, DE");
  });
});
