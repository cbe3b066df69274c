// Cancelling and expiry end to end, over two bot replicas.
import { describe, expect, it } from "vitest";
import { callbacks } from "@orderbot/bot";
import { useShop } from "./support/shop.ts";
import { openCard, orderToInvoice, pressOrder, stockOf } from "./support/users.ts";

const shop = useShop({ replicas: 2 });

describe("cancel and expiry", () => {
  it("cancel returns the stock; a stale Pay on the cancelled order is refused clearly", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    const before = await stockOf(shop.db, "SET-TRAVEL");
    await openCard(user, "Travel tea set", 3);
    const id = await pressOrder(user);
    expect(await stockOf(shop.db, "SET-TRAVEL")).toBe(before - 3);
    const orderMessage = user.lastMessage()!;

    const cancel = await user.press("Cancel order");
    expect((await cancel.answered(10_000)).text).toBe(
      `Order ${id} is cancelled and its items are back on sale.`,
    );
    expect(await stockOf(shop.db, "SET-TRAVEL")).toBe(before);
    expect(
      (
        await shop.db.stockMovement.findMany({
          where: { order: { publicId: id } },
          orderBy: { id: "asc" },
        })
      ).map((m) => [m.reason, m.delta]),
    ).toEqual([
      ["RESERVE", -3],
      ["RELEASE", 3],
    ]);

    // The Pay button as it still shows on another of the user's devices.
    const stale = await user.pressData(callbacks.pay.encode({ orderId: id }), {
      messageId: orderMessage.message_id,
      force: true,
    });
    expect(await stale.answered(10_000)).toEqual(
      expect.objectContaining({
        showAlert: true,
        text: `Order ${id} was cancelled, so it can no longer be paid. Place a new order from /catalog.`,
      }),
    );
    expect(shop.kit.callsTo("sendInvoice")).toHaveLength(0);
  });

  it("a pre-checkout on an expired order is declined, inside Telegram's deadline", async () => {
    const user = shop.kit.createUser({ languageCode: "en" });
    const id = await orderToInvoice(user, "Yixing clay teapot");
    await shop.db.order.update({
      where: { publicId: id },
      data: { expiresAt: new Date(Date.now() - 60_000) },
    });

    // The kit waits Telegram's 10 s for the answer: "declined" (not "timeout") means it came in time.
    const payment = await user.pay();
    expect(payment).toMatchObject({
      status: "declined",
      errorMessage: "This order has expired. Nothing was charged; please order again.",
    });
    expect(await shop.db.payment.count()).toBe(0);
  });
});
