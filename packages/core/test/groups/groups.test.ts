import { beforeAll, describe, expect, it } from "vitest";
import { user } from "../support/fixtures.ts";
import { type Instance, useShopHarness } from "../support/shop.ts";

let instances: Instance[];
let chat = -1_002_000_000_000n;
const nextChat = () => --chat;

const h = useShopHarness();
beforeAll(async () => {
  instances = [h.main, ...(await Promise.all([1, 2, 3].map(() => h.instance())))];
});

describe("operator groups", () => {
  it("binds a group once; binding again updates the title", async () => {
    const chatId = nextChat();
    const first = await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    expect(first).toMatchObject({
      status: "ok",
      created: true,
      group: { chatId, title: "Ops", version: 0, adminIds: [], boundBy: user(1) },
    });
    if (first.status === "ok")
      expect(first.group.settings).toEqual({
        language: "en",
        lowStockThreshold: 3,
        notifyPaidOrders: true,
      });
    expect(await h.shop.groups.bind({ chatId, title: "Ops team", boundBy: user(2) })).toMatchObject(
      {
        status: "ok",
        created: false,
        group: { title: "Ops team", boundBy: user(1) },
      },
    );
    expect((await h.shop.groups.bind({ chatId, title: "", boundBy: user(2) })).status).toBe(
      "invalid",
    );
  });

  it("unbinds a group: its row goes, a second unbind finds nothing, bad input changes nothing", async () => {
    const chatId = nextChat();
    const other = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    await h.shop.groups.bind({ chatId: other, title: "Other", boundBy: user(1) });
    expect(await h.shop.groups.unbind({ chatId: "nonsense", actor: user(1) })).toMatchObject({
      status: "invalid",
    });
    expect(await h.shop.groups.unbind({ chatId, actor: user(1) })).toEqual({ status: "ok" });
    expect(await h.shop.groups.get(chatId)).toBeNull();
    expect(await h.shop.groups.get(other)).not.toBeNull();
    expect(await h.shop.groups.unbind({ chatId, actor: user(1) })).toEqual({ status: "not-found" });
  });

  it("updates settings with optimistic concurrency: of concurrent edits from one version, one wins", async () => {
    const chatId = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    const results = await Promise.all(
      [1, 2, 3, 4].map((n, i) =>
        instances[i]!.shop.groups.updateSettings({
          chatId,
          patch: { lowStockThreshold: n },
          expectedVersion: 0,
          actor: user(1),
        }),
      ),
    );
    const winners = results.filter((r) => r.status === "ok");
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === "conflict")).toHaveLength(3);
    const group = (await h.shop.groups.get(chatId))!;
    expect(group.version).toBe(1);
    if (winners[0]?.status === "ok")
      expect(group.settings.lowStockThreshold).toBe(winners[0].group.settings.lowStockThreshold);
    // A conflict hands back what is stored, so the operator can retry from it.
    const loser = results.find((r) => r.status === "conflict");
    if (loser?.status === "conflict") expect(loser.group.version).toBe(1);
    expect(
      await h.shop.groups.updateSettings({
        chatId,
        patch: { language: "zh" },
        expectedVersion: 1,
        actor: user(1),
      }),
    ).toMatchObject({
      status: "ok",
      group: {
        version: 2,
        settings: { language: "zh", lowStockThreshold: group.settings.lowStockThreshold },
      },
    });
  });

  it("refuses unknown settings and wrong types, and unknown groups", async () => {
    const chatId = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    for (const patch of [
      { colour: "red" },
      { lowStockThreshold: -1 },
      { language: "fr" },
      { notifyPaidOrders: "yes" },
    ]) {
      expect(
        (
          await h.shop.groups.updateSettings({
            chatId,
            patch: patch as never,
            expectedVersion: 0,
            actor: user(1),
          })
        ).status,
      ).toBe("invalid");
    }
    expect(
      await h.shop.groups.updateSettings({
        chatId: nextChat(),
        patch: {},
        expectedVersion: 0,
        actor: user(1),
      }),
    ).toEqual({ status: "not-found" });
    expect((await h.shop.groups.get(chatId))?.version).toBe(0);
  });

  it("reads stored settings leniently: a bad stored field falls back to its default", async () => {
    const chatId = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    await h.db.operatorGroup.update({
      where: { chatId },
      data: { settings: { language: "zh", lowStockThreshold: "many", legacy: true } },
    });
    expect((await h.shop.groups.get(chatId))?.settings).toEqual({
      language: "zh",
      lowStockThreshold: 3,
      notifyPaidOrders: true,
    });
  });

  it("refreshes a stale admin list on one instance at a time; the others and later callers use the cache", async () => {
    const chatId = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    expect(await h.shop.groups.refreshAdmins(chatId, async () => [user(1)])).toMatchObject({
      source: "fetched",
    });
    h.clock.advance(11 * 60_000); // older than the default 10 minutes
    let fetches = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fetchAdmins = async () => {
      fetches++;
      await gate;
      return [user(1), user(2)];
    };
    // Whichever instance takes the group-admins lock fetches (and is held at the gate); the other
    // three answer from the stale cache meanwhile. The gate opens once they have.
    let answered = 0;
    const all = await Promise.all(
      instances.map((i) =>
        i.shop.groups.refreshAdmins(chatId, fetchAdmins).then((r) => {
          if (++answered === 3) release();
          return r;
        }),
      ),
    );
    expect(all.filter((r) => r.status === "ok" && r.source === "fetched")).toHaveLength(1);
    expect(
      all.filter((r) => r.status === "ok" && r.source === "stale-cache" && r.adminIds.length === 1),
    ).toHaveLength(3);
    expect(fetches).toBe(1);
    expect(await h.shop.groups.refreshAdmins(chatId, fetchAdmins)).toEqual({
      status: "ok",
      adminIds: [user(1), user(2)],
      source: "cache",
    });
    expect(fetches).toBe(1);
    expect(await h.shop.groups.isAdmin(chatId, user(2), fetchAdmins)).toBe(true);
    expect(await h.shop.groups.isAdmin(chatId, user(3), fetchAdmins)).toBe(false);
    expect(fetches).toBe(1);
    h.clock.advance(11 * 60_000);
    expect(await h.shop.groups.refreshAdmins(chatId, async () => [user(3)])).toMatchObject({
      source: "fetched",
      adminIds: [user(3)],
    });
    expect(await h.shop.groups.refreshAdmins(nextChat(), fetchAdmins)).toEqual({
      status: "not-found",
    });
    expect(await h.shop.groups.isAdmin(nextChat(), user(1), fetchAdmins)).toBe(false);
  });

  it("fetches a list never fetched on every instance that asks, rather than refusing admins meanwhile", async () => {
    const chatId = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    let fetches = 0;
    const fetchAdmins = async () => {
      fetches++;
      return [user(5)];
    };
    const checks = await Promise.all(
      instances.map((i) => i.shop.groups.isAdmin(chatId, user(5), fetchAdmins)),
    );
    expect(checks).toEqual([true, true, true, true]);
    expect(fetches).toBeGreaterThanOrEqual(1);
    expect((await h.shop.groups.get(chatId))?.adminIds).toEqual([user(5)]);
  });

  it("forgets a list after a membership change: the next check asks Telegram again", async () => {
    const chatId = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    expect(await h.shop.groups.isAdmin(chatId, user(6), async () => [user(1)])).toBe(false);
    // user(6) is promoted; the bot hears a chat_member update.
    await h.shop.groups.forgetAdmins(chatId);
    expect(await h.shop.groups.isAdmin(chatId, user(6), async () => [user(1), user(6)])).toBe(true);
    expect(await h.shop.groups.isAdmin(chatId, user(6), async () => [])).toBe(true); // fresh: cached
  });

  it("never uses a list older than maxStaleMs: asks Telegram past the refresh lock, and says stale when that fails", async () => {
    const chatId = nextChat();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    await h.shop.groups.refreshAdmins(chatId, async () => [user(7)]);
    h.clock.advance(31 * 60_000);
    // Another instance is refreshing (it holds the group-admins lock and is slow).
    const held = await h.main.locks.acquire(
      { kind: "group-admins", id: chatId },
      { ttlMs: 10_000 },
    );
    if (!held.ok) throw new Error("group-admins lock not acquired");
    try {
      const options = { maxAgeMs: 2 * 60_000, maxStaleMs: 30 * 60_000 };
      // user(7) was demoted meanwhile: the old list would still say admin.
      expect(await h.shop.groups.refreshAdmins(chatId, async () => [user(8)], options)).toEqual({
        status: "ok",
        adminIds: [user(8)],
        source: "fetched",
      });
      expect(await h.shop.groups.isAdmin(chatId, user(7), async () => [user(8)], options)).toBe(
        false,
      );
      h.clock.advance(31 * 60_000);
      const down = async (): Promise<number[]> => {
        throw new Error("Too Many Requests: retry after 30");
      };
      expect(await h.shop.groups.refreshAdmins(chatId, down, options)).toMatchObject({
        status: "stale",
      });
      expect(await h.shop.groups.isAdmin(chatId, user(8), down, options)).toBe(false);
      // Without a bound the old list is still used, as before (the worker's background refresh).
      expect(await h.shop.groups.refreshAdmins(chatId, down, { maxAgeMs: 2 * 60_000 })).toEqual({
        status: "ok",
        adminIds: [user(8)],
        source: "stale-cache",
      });
    } finally {
      await held.lease.release();
    }
  });
});
