// A Redis at its maxmemory with noeviction (as compose runs it) answers every new key with OOM.
// That is an outage for the lock kinds' policies, not an error: updates are still handled (the
// `update` kind proceeds on database guarantees), a checkout is refused with nothing reserved, the
// rate limiter fails open and counts it, and a payment is still recorded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedis, waitForRedis, type Redis } from "@orderbot/platform";
import { startRedisServer, type RedisServer } from "@orderbot/testkit";
import { callbacks } from "@orderbot/conversation";
import { startBotHarness, type BotHarness } from "./support/harness.ts";

let server: RedisServer;
let redis: Redis;
let h: BotHarness;

/**
 * Fills Redis past its limit: filler data, then a maxmemory well under what is used, so that the
 * little Redis frees meanwhile (an expired lock, a client's buffer) never makes room for a key.
 * Returns Redis' refusal of one more key.
 */
async function fill(client: Redis): Promise<string> {
  const value = "x".repeat(16_384);
  for (let i = 0; i < 64; i++) await client.set(`filler:${i}`, value);
  const info = await client.info("memory");
  const used = Number(/used_memory:(\d+)/.exec(info)?.[1]);
  await client.config("SET", "maxmemory", String(used - 512 * 1024));
  try {
    await client.set("one-more", "x");
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("Redis accepted a key past its maxmemory");
}

beforeAll(async () => {
  server = await startRedisServer({
    args: ["--maxmemory", "64mb", "--maxmemory-policy", "noeviction"],
  });
  redis = createRedis({ url: server.url, commandTimeoutMs: 500 });
  await waitForRedis(redis);
  h = await startBotHarness({ redisUrl: server.url });
});
afterAll(async () => {
  await h?.close();
  redis?.disconnect();
  await server?.dispose();
});

describe("with Redis full (maxmemory, noeviction)", () => {
  it("handles updates by their kind's policy, refuses a checkout, and records a paid order", async () => {
    const buyer = h.kit.createUser({ languageCode: "en" });
    const product = await h.db.product.findFirstOrThrow({ where: { stock: { gt: 5 } } });
    const order = (qty: number) =>
      buyer.pressData(
        callbacks.order.encode({ productId: product.id, qty, categoryId: 0, page: 1 }),
        {
          force: true,
        },
      );
    // An order placed (and its invoice sent) while Redis still had room.
    await buyer.send("/catalog");
    await buyer.waitForMessage();
    await order(1);
    await buyer.waitForMessage(/Order [2-9A-Z]{8}/, { edits: true });
    await buyer.press(/^Pay/);
    await buyer.waitForMessage((m) => m.invoice !== undefined);

    expect(await fill(redis)).toMatch(/^OOM /);

    // Plain updates: the update lock cannot be written, the update is handled all the same.
    const help = await buyer.send("/help");
    expect(await help.handled()).toMatchObject({ status: "delivered" });
    await buyer.waitForMessage("/catalog: products");

    // A new checkout needs its lock: refused, nothing reserved.
    const stock = (await h.db.product.findUniqueOrThrow({ where: { id: product.id } })).stock;
    const refused = await order(2);
    expect(await refused.answered(10_000)).toMatchObject({
      text: "Temporarily unavailable; nothing was reserved or charged. Please try again in a moment.",
    });
    expect((await h.db.product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(stock);

    // Money already on its way is recorded: pre-checkout answered, the payment stored.
    const payment = await buyer.pay();
    expect(payment.status).toBe("paid");
    if (payment.status !== "paid") return;
    expect(await payment.handled()).toMatchObject({ status: "delivered" });
    const paid = await h.db.payment.findUnique({
      where: { telegramChargeId: payment.chargeId },
      include: { order: true },
    });
    expect(paid?.order?.status).toBe("PAID");
  });
});
