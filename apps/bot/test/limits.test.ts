// What users are told when the shop cannot serve them: busy, Redis unavailable, rate-limited; and
// the command menus published at start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RedisServer } from "@orderbot/testkit";
import { callbacks } from "@orderbot/conversation";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";
import { openPandaMug } from "./support/customer.ts";

describe("with the shared Redis", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({
      env: { RATE_LIMIT_PER_WINDOW: "6", RATE_LIMIT_WINDOW_MS: "60000" },
    });
  });
  afterAll(() => h?.close());

  it("publishes the command menus for private chats and groups, in English and Chinese", () => {
    const calls = h.kit.callsTo("setMyCommands").map(
      (c) =>
        c.params as {
          scope: { type: string };
          language_code?: string;
          commands: { command: string }[];
        },
    );
    const menus = calls.map(
      (c) =>
        `${c.scope.type}/${c.language_code ?? "default"}: ${c.commands.map((x) => x.command).join(",")}`,
    );
    expect(menus.sort()).toEqual([
      "all_group_chats/default: help,products,stock,price,orders,order,kind,refund,process,ship,deliver,report,settings,refunds,refunded,photo,categories,category,promo,codes,import,bind,unbind",
      "all_group_chats/zh: help,products,stock,price,orders,order,kind,refund,process,ship,deliver,report,settings,refunds,refunded,photo,categories,category,promo,codes,import,bind,unbind",
      "all_private_chats/default: start,catalog,search,cart,promo,orders,language,paysupport,terms,help",
      "all_private_chats/zh: start,catalog,search,cart,promo,orders,language,paysupport,terms,help",
    ]);
  });

  it("answers Order with 'still processing' while the user's previous checkout is running", async () => {
    const user = h.kit.createUser({ languageCode: "en" });
    await openPandaMug(user);
    // Another checkout of this user holds the lock (another device, say).
    const held = await h.locks.acquire(
      { kind: "checkout", id: BigInt(user.id) },
      { ttlMs: 10_000 },
    );
    if (!held.ok) throw new Error("checkout lock not acquired");
    try {
      const press = await user.press(/^Order 1 for/);
      expect(await press.answered(10_000)).toMatchObject({
        text: "Still processing your last request…",
        showAlert: false,
      });
    } finally {
      await held.lease.release();
    }
    expect(await h.db.order.count({ where: { userId: BigInt(user.id) } })).toBe(0);
  });

  it("limits what one user can make the bot do, still answering every button", async () => {
    const user = h.kit.createUser({ languageCode: "en" });
    for (let i = 0; i < 5; i++) await user.send("/help");
    await user.send("/catalog"); // the 6th: the last one allowed
    await user.waitForMessage("Catalog");
    await user.send("/help");
    const press = await user.pressData(callbacks.catalogPage.encode({ page: 2 }), { force: true });
    expect((await press.answered()).text).toBe("Too many requests. Please slow down.");
    await (await user.send("/help")).handled();
    const helps = user.view().botMessages.filter((m) => m.text?.startsWith("/catalog: products"));
    expect(helps).toHaveLength(5);
  });
});

describe("in the operator group", () => {
  let h: BotHarness;
  const LIMIT = 4;
  beforeAll(async () => {
    h = await startBotHarness({
      env: { RATE_LIMIT_PER_WINDOW: String(LIMIT), RATE_LIMIT_WINDOW_MS: "60000" },
    });
  });
  afterAll(() => h?.close());

  it("does not count its admins' commands against the per-user limit, and still counts everyone else", async () => {
    const owner = h.kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
    const admin = h.kit.createUser({ firstName: "Admin", languageCode: "en" });
    const member = h.kit.createUser({ firstName: "Member", languageCode: "en" });
    const group = h.kit.createGroup({
      title: "Shop operators",
      creator: owner,
      admins: [admin],
      members: [member],
    });
    await (await owner.send("/bind", { in: group })).handled();
    /** How many of the bot's messages in the chat match. */
    const said = (chat: SimulatedUser | SimulatedGroup, pattern: RegExp) =>
      h.kit.chat(chat).botMessages.filter((m) => pattern.test(m.text ?? "")).length;
    // Three times the limit, as a sale's fulfilment does (one command per order): all answered.
    for (let i = 0; i < 3 * LIMIT; i++)
      await (await admin.send("/stock FAN-SILK +1", { in: group })).handled();
    expect(said(group, /^FAN-SILK: stock \d+ → \d+\.$/)).toBe(3 * LIMIT);
    // A member of the group who is not an admin is counted like anyone.
    for (let i = 0; i < LIMIT + 2; i++)
      await (await member.send("/stock FAN-SILK +1", { in: group })).handled();
    expect(said(group, /^Only this group's administrators can do that\.$/)).toBe(LIMIT);
    // The admin in a private chat is a customer there: counted too.
    for (let i = 0; i < LIMIT + 2; i++) await (await admin.send("/help")).handled();
    expect(said(admin, /^\/catalog: products/)).toBe(LIMIT);
  });
});

describe("with Redis down", () => {
  let server: RedisServer;
  let h: BotHarness;
  beforeAll(async () => {
    server = await startRedisServer();
    h = await startBotHarness({
      redisUrl: server.url,
      env: { REDIS_COMMAND_TIMEOUT_MS: "200" },
    });
  });
  afterAll(async () => {
    await h?.close();
    await server?.dispose();
  });

  it("an order is refused as temporarily unavailable, with nothing reserved", async () => {
    const user = h.kit.createUser({ languageCode: "en" });
    await openPandaMug(user);
    const stock = (await h.db.product.findUniqueOrThrow({ where: { sku: "MUG-PANDA" } })).stock;

    await server.stop();
    const press = await user.press(/^Order 1 for/);
    expect(await press.answered(10_000)).toMatchObject({
      text: "Temporarily unavailable; nothing was reserved or charged. Please try again in a moment.",
      showAlert: true,
    });
    expect(await h.db.order.count()).toBe(0);
    expect((await h.db.product.findUniqueOrThrow({ where: { sku: "MUG-PANDA" } })).stock).toBe(
      stock,
    );
    // Browsing goes on without Redis: only what needs a lock is refused.
    await user.send("/help");
    await user.waitForMessage("/catalog: products");
  });
});
