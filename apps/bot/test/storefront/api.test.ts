// The storefront's API end to end: a Mini App shopper (initData signed as Telegram signs it)
// browses, fills the cart the chat shares, checks out (twice with one key: one order), pays an
// invoice link through the fake Telegram, and sees PAID only once the bot recorded the payment.
// In-process bot, real HTTP, PostgreSQL and Redis.
import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import Fastify from "fastify";
import { createLogger } from "@orderbot/platform";
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import type { BotHarness } from "../support/harness.ts";
import { useBotHarness } from "../support/operators.ts";
import { storefrontApi } from "../../src/storefront/api.ts";
import { callApi, initDataFor, shopper } from "./support.ts";

let h: BotHarness, kit: FakeTelegram;
useBotHarness({}, (opened) => ({ h, kit } = opened));

async function customer(name: string): Promise<SimulatedUser> {
  const user = kit.createUser({ firstName: name, languageCode: "en" });
  await user.send("/start");
  await user.waitForMessage("Welcome");
  return user;
}

/** Waits for a condition the test cannot be told about (no time window is asserted). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const productId = async (sku: string) =>
  (await h.db.product.findUniqueOrThrow({ where: { sku } })).id;

describe("a Mini App shopper", () => {
  it("browses, checks out once for two tries with one key, and reads PAID only once the bot recorded it", async () => {
    const ann = await customer("Ann");
    const api = shopper(h, ann);
    const categories = await api("/categories");
    expect(categories.status).toBe(200);
    expect(categories.body.categories.length).toBeGreaterThan(0);
    const found = await api(`/search?q=${encodeURIComponent("丝绸")}`);
    expect(found.body.items.map((p: { sku: string }) => p.sku)).toContain("FAN-SILK");
    const product = await api("/products/FAN-SILK");
    expect(product.body.product).toMatchObject({
      price: { minor: 30, currency: "XTR" },
      stock: 25,
    });

    const fan = await productId("FAN-SILK");
    const set = await api(`/cart/lines/${fan}`, { method: "PUT", json: { quantity: 2 } });
    expect(set.body.cart).toMatchObject({ units: 2, total: { minor: 60, currency: "XTR" } });

    const attempt = { revision: set.body.cart.revision, idempotencyKey: randomUUID() };
    const first = await api("/checkout", { method: "POST", json: attempt });
    const retry = await api("/checkout", { method: "POST", json: attempt });
    expect([first.status, retry.status]).toEqual([201, 200]);
    expect(retry.body.order.id).toBe(first.body.order.id);
    expect(await h.db.order.count({ where: { userId: BigInt(ann.id) } })).toBe(1);
    const id: string = first.body.order.id;

    const link = await api(`/orders/${id}/invoice-link`, {
      method: "POST",
      json: { attemptKey: randomUUID() },
    });
    expect(link.body).toMatchObject({ status: "ok", amount: { minor: 60, currency: "XTR" } });
    expect((await api(`/orders/${id}`)).body.order.status).toBe("RESERVED");

    // The charge is made, but the bot has not yet received the successful_payment: the bot's
    // yes to the pre-checkout is held until the webhook is cut off, then let through.
    const held = kit.faults.hold("answerPreCheckoutQuery");
    const paying = ann.payLink(link.body.url);
    await until(() => held.waiting > 0);
    kit.faults.delivery({ webhookUnreachable: true });
    held.release();
    const payment = await paying;
    if (payment.status !== "paid") throw new Error(`payment ${payment.status}`);
    expect(kit.charges.map((c) => c.payload)).toEqual([id]);
    expect((await api(`/orders/${id}`)).body.order.status).not.toBe("PAID");
    kit.faults.delivery({});
    await payment.handled();
    const order = (await api(`/orders/${id}`)).body.order;
    expect(order.status).toBe("PAID");
    expect(order.timeline.at(-1)).toMatchObject({ from: "PAYING", to: "PAID" });
    expect((await api("/orders")).body.orders.map((o: { id: string }) => o.id)).toEqual([id]);
  });

  it("shares the chat's cart: a product added in the chat shows in the API's cart", async () => {
    const bob = await customer("Bob");
    await bob.send("/catalog");
    await bob.waitForMessage("Catalog");
    const mug = await productId("MUG-PANDA");
    const data = callbacks.cartAdd.encode({ productId: mug, qty: 3, categoryId: 0, page: 1 });
    await (await bob.pressData(data, { force: true })).handled();
    const cart = (await shopper(h, bob)("/cart")).body;
    expect(cart.lines).toEqual([
      expect.objectContaining({
        product: expect.objectContaining({ sku: "MUG-PANDA" }),
        quantity: 3,
      }),
    ]);
  });
});

describe("refusals", () => {
  it("answers a tampered, expired, missing or foreign-signed initData with 401 and a reason, changing nothing", async () => {
    const cy = kit.createUser({ firstName: "Cy", languageCode: "en" });
    const good = initDataFor(cy, kit.token);
    const otherId = cy.id + 1;
    const tampered = good.replace(`%22id%22%3A${cy.id}`, `%22id%22%3A${otherId}`);
    expect(tampered).not.toBe(good);
    const expired = initDataFor(cy, kit.token, h.config.STOREFRONT_INIT_DATA_MAX_AGE_S + 60);
    const foreign = initDataFor(cy, "123456:another-bots-token-0123456789");
    const fan = await productId("FAN-SILK");
    const cases = [
      [tampered, "tampered"],
      [expired, "expired"],
      [null, "missing"],
      [foreign, "tampered"],
      [good.replace(/&hash=[0-9a-f]+/, ""), "tampered"],
    ] as const;
    for (const [initData, reason] of cases) {
      const put = { method: "PUT", json: { quantity: 1 } };
      const answer = await callApi(h, initData, `/cart/lines/${fan}`, put);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 401,
        body: { status: "unauthorized", reason },
      });
    }
    const ids = { in: [BigInt(cy.id), BigInt(otherId)] };
    expect(await h.db.cartItem.count({ where: { userId: ids } })).toBe(0);
    expect(await h.db.customer.count({ where: { userId: ids } })).toBe(0);
    // The same customer, signed right, is let in and recorded.
    expect((await callApi(h, good, "/cart")).status).toBe(200);
    expect(await h.db.customer.count({ where: { userId: ids } })).toBe(1);
  });

  it("answers bad input with 400 and core's problems, changing nothing", async () => {
    const kim = kit.createUser({ firstName: "Kim", languageCode: "en" });
    const api = shopper(h, kim);
    const fan = await productId("FAN-SILK");
    const answer = await api(`/cart/lines/${fan}`, { method: "PUT", json: { quantity: -1 } });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { status: "invalid", problems: [{ field: "quantity", rule: "min", bound: 0 }] },
    });
    const checkout = await api("/checkout", { method: "POST", json: { revision: 0 } });
    expect(checkout.body.problems).toEqual([{ field: "idempotencyKey", rule: "required" }]);
    expect(await h.db.cartItem.count({ where: { userId: BigInt(kim.id) } })).toBe(0);
  });

  it("answers another customer's order exactly as a missing one", async () => {
    const dan = await customer("Dan");
    const eve = shopper(h, kit.createUser({ firstName: "Eve", languageCode: "en" }));
    const id = await placeWithApi(shopper(h, dan), "MUG-PANDA");
    const missing = await eve("/orders/ZZZZZZZZ");
    expect(missing).toMatchObject({ status: 404, body: { status: "not-found" } });
    for (const answer of [
      await eve(`/orders/${id}`),
      await eve(`/orders/${id}/invoice-link`, {
        method: "POST",
        json: { attemptKey: randomUUID() },
      }),
    ])
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: missing.status,
        body: missing.body,
      });
    expect(await h.db.order.count({ where: { publicId: id } })).toBe(1);
    expect(kit.callsTo("createInvoiceLink")).toHaveLength(1 /* Ann's, above */);
  });

  it("counts a shopper's calls in the chat's per-user rate limit", async () => {
    const api = shopper(h, kit.createUser({ firstName: "Flo", languageCode: "en" }));
    const limit = h.config.RATE_LIMIT_PER_WINDOW;
    const answers = await Promise.all(Array.from({ length: limit + 1 }, () => api("/cart")));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(1);
  });
});

describe("the last unit", () => {
  it("goes to exactly one of two Mini App shoppers and a chat shopper; nothing is oversold", async () => {
    const sku = "POT-YIXING";
    const pot = await productId(sku);
    await h.db.product.update({ where: { sku }, data: { stock: 1 } });
    const apis = [shopper(h, await customer("Gil")), shopper(h, await customer("Hal"))];
    const revisions = await Promise.all(
      apis.map(async (api) => {
        const set = await api(`/cart/lines/${pot}`, { method: "PUT", json: { quantity: 1 } });
        return set.body.cart.revision as number;
      }),
    );
    const chat = await customer("Ivy");
    await chat.send("/catalog");
    await chat.waitForMessage("Catalog");
    const press = callbacks.order.encode({ productId: pot, qty: 1, categoryId: 0, page: 1 });

    const [a, b] = await Promise.all([
      ...apis.map((api, i) =>
        api("/checkout", {
          method: "POST",
          json: { revision: revisions[i], idempotencyKey: randomUUID() },
        }),
      ),
      chat.pressData(press, { force: true }).then((pressed) => pressed.handled()),
    ]);

    const lines = await h.db.orderItem.findMany({ where: { productId: pot } });
    expect(lines.map((l) => l.quantity)).toEqual([1]);
    expect((await h.db.product.findUniqueOrThrow({ where: { sku } })).stock).toBe(0);
    const won = [a!, b!].filter((answer) => answer.status === 201);
    expect(won.length).toBeLessThanOrEqual(1);
    for (const lost of [a!, b!].filter((answer) => answer.status !== 201))
      expect(lost).toMatchObject({ status: 409, body: { status: "out-of-stock" } });
  });
});

describe("headers", () => {
  it("sends a CSP that runs scripts from the app and telegram.org and lets only Telegram's web clients frame it", async () => {
    const answer = await callApi(h, null, "/cart");
    const csp = answer.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self' https://telegram.org");
    expect(csp).toContain("frame-ancestors https://web.telegram.org");
    expect(answer.headers.get("x-frame-options")).toBeNull();
    const health = await fetch(new URL("/healthz", h.config.PUBLIC_URL));
    expect(health.headers.get("content-security-policy")).toBeNull();
  });
});

describe("logs", () => {
  it("never carry the initData or the bot's token, whatever the request", async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
    const logger = createLogger({ level: "trace", destination: stream });
    const app = Fastify({ loggerInstance: logger });
    const limiter = { admitsRequest: () => Promise.resolve(true) };
    const languages = { remember: () => Promise.resolve("en" as const) };
    const auth = {
      botToken: kit.token,
      maxAgeSeconds: 60,
      limiter,
      languages,
      retryAfterSeconds: 1,
      logger,
    };
    const invoices = {
      api: h.app.bot.api,
      settings: {
        provider: null,
        asks: { name: false, phone: false, email: false },
        paymentGraceMs: 60_000,
      },
      providerToken: "",
      nonce: false,
      claims: {
        claimInvoice: () => Promise.reject(new Error("unused")),
        releaseInvoice: () => Promise.resolve(),
      },
      translate: () => () => "",
    };
    await app.register(storefrontApi({ shop: h.shop, auth, invoices }), { prefix: "/app/api" });
    const user = kit.createUser({ firstName: "Lou", languageCode: "en" });
    const good = initDataFor(user, kit.token);
    const old = initDataFor(user, kit.token, 120);
    for (const initData of [good, old, good.replace("Shopper", "Shopped")]) {
      const authorization = `tma ${initData}`;
      await app.inject({ url: "/app/api/cart", headers: { authorization } });
      // A body that is not JSON: Fastify's own error path logs too.
      await app.inject({
        method: "POST",
        url: "/app/api/checkout",
        headers: { authorization, "content-type": "application/json" },
        payload: "{not json",
      });
    }
    await app.close();
    const logged = lines.join("");
    expect(logged).toContain("storefront request refused");
    expect(logged).not.toContain(kit.token);
    expect(logged).not.toContain(encodeURIComponent(String(user.id)));
    for (const hash of [good, old].map((raw) => new URLSearchParams(raw).get("hash")!))
      expect(logged).not.toContain(hash);
  });
});

/** Puts one unit of `sku` in the cart and checks out; the order's id. */
async function placeWithApi(api: ReturnType<typeof shopper>, sku: string): Promise<string> {
  const set = await api(`/cart/lines/${await productId(sku)}`, {
    method: "PUT",
    json: { quantity: 1 },
  });
  const attempt = { revision: set.body.cart.revision, idempotencyKey: randomUUID() };
  const placed = await api("/checkout", { method: "POST", json: attempt });
  expect(placed.status).toBe(201);
  return placed.body.order.id;
}
