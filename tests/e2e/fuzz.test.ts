// 2,000 random, mutated and hostile updates (fast-check) posted to two bot replicas while the kit
// injects Bot API faults. Expected: no 5xx beyond what the injected faults explain, no crash, and
// no change to the shop's data: none of these updates is one that may change it (garbage,
// mangled payloads, crafted buttons for someone else's order, commands from non-admins, payments
// checked for orders that are not the payer's). ProcessedUpdate, the record of updates seen, and
// the outbox rows booking the bot's group replies (its refusals) are bookkeeping, left out.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultHandle, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { FRESH_ID, fuzzUpdates, type FuzzTargets } from "./support/fuzz-updates.ts";
import { OWNER_ID, startShop, type E2eShop } from "./support/shop.ts";

const RUNS = 2_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_301);
const CONCURRENCY = 8;
/** The shop's data, table by table (`*`: every column). */
const DOMAIN_TABLES: Record<string, string> = {
  products: "*",
  orders: "*",
  order_items: "*",
  stock_movements: "*",
  price_changes: "*",
  stock_batches: "*",
  payments: "*",
  outbox_messages: "*",
  // Not its admin list: that is a cache of Telegram's, which any operator command may refresh (a
  // stranger's /stock in the group makes the bot ask Telegram who the admins are).
  operator_groups: "chat_id, title, settings, version, bound_by, created_at",
};
/** Rows left out: a group reply's own row books the refusal the bot sends there, not shop data. */
const BOOKKEEPING_ROWS: Record<string, string> = {
  outbox_messages: "dedupe_key NOT LIKE 'reply:%'",
};

let shop: E2eShop;
let customer: SimulatedUser;
let stranger: SimulatedUser;
let member: SimulatedUser;
let group: SimulatedGroup;
let orderId: string;
let faults: FaultHandle;

beforeAll(async () => {
  shop = await startShop({ replicas: 2 });
  const owner = shop.kit.createUser({ id: OWNER_ID, languageCode: "en" });
  customer = shop.kit.createUser({ languageCode: "en" });
  stranger = shop.kit.createUser({ languageCode: "zh" });
  member = shop.kit.createUser({ languageCode: "en" });
  group = shop.kit.createGroup({ title: "Operators", creator: owner, members: [member] });
  await shop.shop.groups.bind({ chatId: group.id, title: "Operators", boundBy: OWNER_ID });
  const placed = await shop.shop.orders.placeOrder({
    userId: customer.id,
    chatId: customer.chatId,
    items: [{ sku: "TEA-PUER", quantity: 2 }],
    idempotencyKey: "fuzz-setup",
  });
  if (placed.status !== "ok") throw new Error(`setup order: ${placed.status}`);
  orderId = placed.order.id;
  for (const user of [stranger, member]) {
    await user.send("/start");
    await user.waitForMessage(undefined, { timeoutMs: 10_000 });
  }
  faults = shop.kit.faults.set({
    method: ["sendMessage", "editMessageText", "answerCallbackQuery", "getChatAdministrators"],
    rate500: 0.05,
    rate429: 0.02,
    retryAfter: 1,
  });
}, 120_000);
afterAll(() => shop?.stop());

/** A digest of every domain table: equal digests, equal data. */
async function domainDigest(): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  for (const [table, columns] of Object.entries(DOMAIN_TABLES)) {
    const [row] = await shop.db.$queryRawUnsafe<{ digest: string | null }[]>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM (SELECT ${columns} FROM ${table} WHERE ${BOOKKEEPING_ROWS[table] ?? "true"}) t`,
    );
    digest[table] = row?.digest ?? "";
  }
  return digest;
}

describe("fuzzing the webhook", () => {
  it(`${RUNS} random and mutated updates: no unexplained 5xx, no crash, no change to the shop's data`, async () => {
    const before = await domainDigest();
    const targets: FuzzTargets = {
      people: [
        stranger.user,
        member.user,
        { id: 9_900_000_001, is_bot: false, first_name: "Nobody" },
      ],
      chats: [
        { id: stranger.chatId, type: "private", first_name: "S" },
        { id: member.chatId, type: "private", first_name: "M" },
        { id: group.id, type: "supergroup", title: "Operators" },
        { id: -100_777, type: "group", title: "Elsewhere" },
      ],
      orderId,
    };
    const samples = fc.sample(fuzzUpdates(targets), { numRuns: RUNS, seed: SEED });
    const statuses = new Map<number, number>();
    const unexpected: { status: number; body: string }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < samples.length) {
        const index = next++;
        // A mangled or missing update_id stays (and must get 400); the placeholder becomes a fresh id.
        const sample = samples[index]!;
        const body =
          sample.update_id === FRESH_ID ? { ...sample, update_id: 700_000_000 + index } : sample;
        const response = await shop.post(body);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status !== 200 && response.status !== 400 && response.status < 500) {
          unexpected.push({ status: response.status, body: JSON.stringify(body).slice(0, 300) });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const serverErrors = [...statuses]
      .filter(([status]) => status >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    expect(unexpected, `seed ${SEED}`).toEqual([]);
    expect(
      serverErrors,
      `seed ${SEED}: 5xx responses vs injected faults (${JSON.stringify([...statuses])})`,
    ).toBeLessThanOrEqual(faults.injected);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 2);
    expect(faults.injected).toBeGreaterThan(0);

    // Nothing crashed: both replicas still answer, and the shop's data is as it was.
    for (const bot of shop.bots)
      expect(
        await Promise.race([bot.exited.then(() => "exited"), Promise.resolve("running")]),
      ).toBe("running");
    for (const replica of shop.replicaUrls)
      expect((await fetch(`${replica}/healthz`)).status).toBe(200);
    expect(await domainDigest()).toEqual(before);
  }, 300_000);
});
