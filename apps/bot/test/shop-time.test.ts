// Times are shown in the shop's time zone (SHOP_TIME_ZONE), named, from the first card on:
// Telegram does not tell a bot its users' zones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotHarness, type BotHarness } from "./support/harness.ts";
import { openPandaMug } from "./support/customer.ts";

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness({ env: { SHOP_TIME_ZONE: "Asia/Shanghai" } });
});
afterAll(() => h?.close());

describe("a shop in Asia/Shanghai", () => {
  it("says until when an order is held in its own zone, on the card Order turns into", async () => {
    const user = h.kit.createUser({ languageCode: "en" });
    await openPandaMug(user);
    await user.press(/^Order 1 for/);
    const card = await user.waitForMessage(/Held for you/, { edits: true });
    const order = await h.db.order.findFirstOrThrow({ where: { userId: BigInt(user.id) } });
    const shanghai = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Asia/Shanghai",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(order.expiresAt);
    expect(card.text).toContain(`until ${shanghai} (Asia/Shanghai)`);
  });
});
