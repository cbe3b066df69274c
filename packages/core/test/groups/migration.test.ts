// A group upgraded to a supergroup: its binding, settings and outbox follow it once, however
// many replicas and messages report the upgrade; a group the bot was removed from keeps its
// binding and its pending messages become dead letters.
import { beforeAll, describe, expect, it } from "vitest";
import { runTransaction } from "@orderbot/db";
import { expandEvents, recordEvent } from "../../src/events/index.ts";
import { user } from "../support/fixtures.ts";
import { type Instance, useShopHarness } from "../support/shop.ts";

let instances: Instance[];
let chat = -4_200_000_000n;
const nextChat = () => --chat;
let supergroup = -1_003_000_000_000n;
const nextSupergroup = () => --supergroup;

const h = useShopHarness();
beforeAll(async () => {
  instances = [h.main, ...(await Promise.all([1, 2, 3].map(() => h.instance())))];
});

const queue = (chatId: bigint, key: string, status: "PENDING" | "SENT" | "DEAD" = "PENDING") =>
  h.db.outboxMessage.create({
    data: { dedupeKey: key, chatId, method: "notify", payload: { template: "x" }, status },
  });

describe("a group upgraded to a supergroup", () => {
  it("moves the binding, its settings and its unsent messages once, whoever reports it first", async () => {
    const from = nextChat();
    const to = nextSupergroup();
    await h.shop.groups.bind({ chatId: from, title: "Ops", boundBy: user(1) });
    const bound = await h.shop.groups.get(from);
    await h.shop.groups.updateSettings({
      chatId: from,
      patch: { lowStockThreshold: 9 },
      expectedVersion: bound!.version,
      actor: user(1),
    });
    await queue(from, `mig:${from}:pending`);
    await queue(from, `mig:${from}:dead`, "DEAD");
    await queue(from, `mig:${from}:sent`, "SENT");
    // An event's delivery to the group, not yet sent.
    await runTransaction(h.db, (tx) =>
      recordEvent(
        tx,
        { kind: "stock.low", sku: "MIG", titleEn: "T", titleZh: "T", stock: 1 },
        { dedupeKey: `mig-event:${from}` },
        undefined,
      ),
    );
    await expandEvents(h.db, { batchSize: 100, fallbackChat: undefined, maxBatches: 10 });

    // Both service messages of the upgrade, on every replica at once.
    const results = await Promise.all(
      instances.flatMap((i) => [
        i.shop.groups.migrate({ fromChatId: from, toChatId: to }),
        i.shop.groups.migrate({ fromChatId: String(from), toChatId: String(to) }),
      ]),
    );
    expect(results.every((r) => r.status === "ok")).toBe(true);
    expect(results.filter((r) => r.status === "ok" && r.moved)).toHaveLength(1);

    expect(await h.shop.groups.get(from)).toBeNull();
    const moved = await h.shop.groups.get(to);
    expect(moved).toMatchObject({ title: "Ops", boundBy: user(1), adminsRefreshedAt: null });
    expect(moved?.settings.lowStockThreshold).toBe(9);
    const messages = await h.db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: `mig:${from}:` } },
      orderBy: { dedupeKey: "asc" },
    });
    // Sent history stays where it was sent; what is still to be delivered (or retried) follows.
    expect(messages.map((m) => [m.dedupeKey.split(":")[2], m.chatId])).toEqual([
      ["dead", to],
      ["pending", to],
      ["sent", from],
    ]);
    const [delivery] = await h.db.$queryRaw<{ chat_id: bigint }[]>`
      SELECT d.chat_id FROM deliveries d JOIN events e ON e.id = d.event_id
       WHERE e.dedupe_key = ${`mig-event:${from}`}`;
    expect(BigInt(delivery!.chat_id)).toBe(to);
  });

  it("keeps a binding already made in the supergroup, and refuses bad input", async () => {
    const from = nextChat();
    const to = nextSupergroup();
    await h.shop.groups.bind({ chatId: from, title: "Old", boundBy: user(1) });
    await h.shop.groups.bind({ chatId: to, title: "New", boundBy: user(2) });
    expect(await h.shop.groups.migrate({ fromChatId: from, toChatId: to })).toMatchObject({
      status: "ok",
      moved: false,
    });
    expect(await h.shop.groups.get(from)).toBeNull();
    expect((await h.shop.groups.get(to))?.title).toBe("New");
    expect(await h.shop.groups.migrate({ fromChatId: "x", toChatId: to })).toMatchObject({
      status: "invalid",
    });
    expect(await h.shop.groups.migrate({ fromChatId: to, toChatId: to })).toMatchObject({
      status: "invalid",
    });
    expect((await h.shop.groups.get(to))?.title).toBe("New");
  });
});

describe("the bot removed from an operator group", () => {
  it("dead-letters the group's pending messages and keeps the binding", async () => {
    const chatId = nextSupergroup();
    await h.shop.groups.bind({ chatId, title: "Ops", boundBy: user(1) });
    await queue(chatId, `rm:${chatId}:1`);
    await queue(chatId, `rm:${chatId}:2`);
    await queue(chatId, `rm:${chatId}:sent`, "SENT");
    const other = nextSupergroup();
    await queue(other, `rm:${other}:1`);

    expect(await h.shop.groups.botRemoved(chatId)).toMatchObject({
      status: "ok",
      deadLettered: 2,
    });
    const statuses = await h.db.outboxMessage.findMany({
      where: { dedupeKey: { startsWith: "rm:" } },
    });
    expect(Object.fromEntries(statuses.map((m) => [m.dedupeKey, m.status]))).toEqual({
      [`rm:${other}:1`]: "PENDING",
      [`rm:${chatId}:1`]: "DEAD",
      [`rm:${chatId}:2`]: "DEAD",
      [`rm:${chatId}:sent`]: "SENT",
    });
    expect(await h.shop.groups.get(chatId)).not.toBeNull();
    expect(await h.shop.groups.botRemoved(other)).toEqual({ status: "not-found" });
  });
});
