// Money commands against an old admin list: while another instance holds the refresh lock, the
// cached list is used, but never one older than 10 minutes. Past that the bot asks Telegram
// itself, and when Telegram cannot answer, /stock (like /refund and /price) is refused with a
// clear message and nothing changes. In-process bot, real PostgreSQL and Redis, the kit's Telegram.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

let h: BotHarness;
let owner: SimulatedUser;
let group: SimulatedGroup;
beforeAll(async () => {
  h = await startBotHarness();
  owner = h.kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
  group = h.kit.createGroup({ title: "Ops", creator: owner });
  await owner.send("/bind", { in: group });
  await group.waitForMessage(/operator group/);
});
afterAll(() => h?.close());

/** Makes the cached admin list `minutes` old, with the refresh lock held by "another instance". */
async function ageAdminList(minutes: number) {
  await h.db.operatorGroup.update({
    where: { chatId: BigInt(group.chatId) },
    data: {
      adminIds: [BigInt(OWNER_ID)],
      adminsRefreshedAt: new Date(Date.now() - minutes * 60_000),
    },
  });
}

describe("an admin list older than its maximum age", () => {
  it("is not used for /stock: Telegram is asked, and when it cannot answer the command is refused", async () => {
    const product = await h.db.product.findFirstOrThrow({ where: { active: true } });
    const held = await h.locks.acquire(
      { kind: "group-admins", id: BigInt(group.chatId) },
      { ttlMs: 30_000 },
    );
    if (!held.ok) throw new Error("group-admins lock not acquired");
    try {
      // 5 minutes old: past the 2-minute refresh, under the 10-minute bound: the cache serves.
      await ageAdminList(5);
      await owner.send(`/stock ${product.sku} +1`, { in: group });
      expect((await group.waitForMessage()).text).toMatch(new RegExp(`^${product.sku}: stock`));

      // 11 minutes old and Telegram refusing getChatAdministrators (429 for 30 s, longer than the
      // bot waits to retry): refused, nothing changed.
      await ageAdminList(11);
      const down = h.kit.faults.set({
        method: "getChatAdministrators",
        rate429: 1,
        retryAfter: 30,
      });
      const before = (await h.db.product.findUniqueOrThrow({ where: { id: product.id } })).stock;
      try {
        await owner.send(`/stock ${product.sku} +1`, { in: group });
        expect((await group.waitForMessage()).text).toBe(
          "Cannot check who the admins of this group are right now, so nothing was changed. Please try again in a minute.",
        );
      } finally {
        down.remove();
      }
      expect((await h.db.product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(
        before,
      );

      // Telegram answers again: the list is fetched past the held lock, and the command runs.
      await owner.send(`/stock ${product.sku} +1`, { in: group });
      expect((await group.waitForMessage()).text).toMatch(new RegExp(`^${product.sku}: stock`));
    } finally {
      await held.lease.release();
    }
  }, 60_000);
});
