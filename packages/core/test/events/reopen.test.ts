// A refund to make by hand, recorded while nobody could be told (no group bound, no
// OPERATOR_GROUP_ID), reaches the first group bound: the event found no chat and is expanded again.
import { describe, expect, it } from "vitest";
import { manualRefundsNotAlerted } from "../../src/payments/index.ts";
import { reopenUnheard } from "../../src/events/index.ts";
import { deliveries } from "../support/deliveries.ts";
import { unique, user } from "../support/fixtures.ts";
import { useShopHarness } from "../support/shop.ts";

const h = useShopHarness();
const GROUP = -1_009_000_000_700n;

describe("an event nobody heard", () => {
  it("is expanded again once a group is bound, and then only once", async () => {
    const charge = unique("usd-orphan");
    const paid = await h.shop.payments.confirmPayment({
      orderId: "NOORDER2",
      userId: user(40),
      telegramChargeId: charge,
      amount: 900,
      currency: "USD",
    });
    expect(paid).toMatchObject({ status: "refund-pending", reason: "unknown-order" });
    const key = `refund-alert:${charge}`;
    expect(await deliveries(h.db, key)).toEqual([]); // expanded, to nobody
    const unheard = async () =>
      (await manualRefundsNotAlerted(h.db, 10)).map((r) => r.telegramChargeId);
    expect(await unheard()).toEqual([charge]);
    expect(await reopenUnheard(h.db, [key], undefined)).toBe(0); // still nobody to tell

    await h.shop.groups.bind({ chatId: GROUP, title: "Ops", boundBy: user(1) });
    expect(await reopenUnheard(h.db, [key], undefined)).toBe(1);
    expect((await deliveries(h.db, key)).map((d) => d.chatId)).toEqual([GROUP]);
    expect(await unheard()).toEqual([]);
    expect(await reopenUnheard(h.db, [key], undefined)).toBe(0);
  });
});
