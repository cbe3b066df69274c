// A flooding user against the rate limit at the front of the update pipeline: what is over the
// limit costs no PostgreSQL work and no lock key, and another user's payment is answered in time.
// In-process bot, real HTTP, PostgreSQL and Redis, the kit's Telegram.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserAction } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import { startBotHarness, type BotHarness } from "./support/harness.ts";

const LIMIT = 10;
let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness({
    env: { RATE_LIMIT_PER_WINDOW: String(LIMIT), RATE_LIMIT_WINDOW_MS: "60000" },
  });
});
afterAll(() => h?.close());

/** `count` messages from `user` at `perSecond`, without waiting for the bot; resolves when all are handled. */
async function flood(
  send: () => Promise<UserAction>,
  count: number,
  perSecond: number,
): Promise<void> {
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    sent.push(send().then((action) => action.handled()));
    await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
  }
  await Promise.all(sent);
}

describe("a flood from one user", () => {
  it("is turned away before dedupe, the update lock and the record: only the allowed ones reach PostgreSQL", async () => {
    const flooder = h.kit.createUser({ languageCode: "en" });
    const before = await h.db.processedUpdate.count();
    await flood(() => flooder.send("/help"), 60, 50);
    // Exactly the allowed updates were recorded (48 hours each); the 50 over the limit left nothing.
    expect((await h.db.processedUpdate.count()) - before).toBe(LIMIT);
    const helps = flooder.view().botMessages.filter((m) => m.text?.startsWith("/catalog"));
    expect(helps).toHaveLength(LIMIT);
  });

  it("at 50 updates/s does not make another user's pre-checkout miss its deadline", async () => {
    const flooder = h.kit.createUser({ languageCode: "en" });
    const buyer = h.kit.createUser({ languageCode: "en" });
    const product = await h.db.product.findFirstOrThrow({ where: { stock: { gt: 0 } } });
    await buyer.send("/catalog");
    await buyer.waitForMessage("Catalog");
    await buyer.pressData(
      callbacks.order.encode({ productId: product.id, qty: 1, categoryId: 0, page: 1 }),
      {
        force: true,
      },
    );
    await buyer.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
    await buyer.press(/^Pay/);
    await buyer.waitForMessage((m) => m.invoice !== undefined);

    const flooding = flood(() => flooder.send("/catalog"), 150, 50);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the flood is well under way
    const startedAt = Date.now();
    const payment = await buyer.pay({ timeoutMs: 10_000 });
    const seconds = (Date.now() - startedAt) / 1000;
    await flooding;

    expect(payment.status).toBe("paid");
    expect(seconds).toBeLessThan(5);
    await expect
      .poll(() => h.db.order.count({ where: { userId: BigInt(buyer.id), status: "PAID" } }))
      .toBe(1);
  });
});
