// What the webhook fuzz run posts: well-formed but hostile updates, the same with one field
// removed, retyped or blown up, and garbage. None of them may change the shop's data.
import fc from "fast-check";
import type { Chat, User } from "grammy/types";

/** Stands for "a fresh update_id" until the update is posted; a mutation may replace or remove it. */
export const FRESH_ID = -1;

/** Who and what the updates may name: none of them may change anything. */
export interface FuzzTargets {
  /** Users who may not change anything: neither the order's owner nor an admin of the group. */
  people: User[];
  /** Their private chats, the operator group and others. */
  chats: Chat[];
  /** An order that belongs to someone else. */
  orderId: string;
}

/** Updates Telegram could send, from people who may not change anything. */
function hostileUpdates({
  people: who,
  chats: where,
  orderId,
}: FuzzTargets): fc.Arbitrary<Record<string, unknown>> {
  const now = Math.floor(Date.now() / 1000);
  const people = fc.constantFrom(...who);
  const chats = fc.constantFrom(...where);
  const text = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.constantFrom(
      "/start",
      "/help",
      "/catalog",
      "/orders",
      "/language",
      "/bind",
      "/products",
      "/stock TEA-PUER +5",
      "/stock TEA-PUER =0",
      "/price TEA-PUER 1",
      `/refund ${orderId}`,
      `/order ${orderId}`,
      "/orders PAID",
      "/report",
      "/settings",
    ),
    fc.string({ maxLength: 30 }).map((s) => `/${s}`),
  );
  const data = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.constantFrom(
      `x:${orderId}`,
      `y:${orderId}`,
      "o:999999:1:0:1",
      "o:1:0:0:1",
      "o:1:100:0:1",
      "p:1:1:0:1",
      "p:999:1:0:1",
      "c:1",
      "c:999",
      "k:1:1",
      "k:999:1",
      "f:1:tea",
      "a:999999:1:0:1",
      "b:0",
      "e:0",
      "l:zh",
      "s:language:zh:0",
      "s:lowStockThreshold:9:0",
      "s:notifyPaidOrders:0:0",
    ),
  );
  const message = fc
    .record({
      message_id: fc.integer({ min: 1, max: 1_000_000 }),
      date: fc.constant(now),
      chat: chats,
      from: people,
      text,
    })
    .map((m) =>
      m.text.startsWith("/")
        ? {
            ...m,
            entities: [{ type: "bot_command", offset: 0, length: m.text.split(" ")[0]!.length }],
          }
        : m,
    );
  return fc.oneof(
    message.map((m) => ({ update_id: FRESH_ID, message: m })),
    fc
      .record({
        id: fc.string({ minLength: 1, maxLength: 20 }),
        from: people,
        chat_instance: fc.string({ maxLength: 10 }),
        message,
        data,
      })
      .map((q) => ({ update_id: FRESH_ID, callback_query: q })),
    fc
      .record({
        id: fc.string({ minLength: 1, maxLength: 20 }),
        from: people,
        currency: fc.constantFrom("XTR", "USD"),
        total_amount: fc.integer({ min: 1, max: 1_000 }),
        invoice_payload: fc.oneof(fc.constant(orderId), fc.string({ minLength: 1, maxLength: 40 })),
      })
      .map((q) => ({ update_id: FRESH_ID, pre_checkout_query: q })),
  );
}

/** Breaks a well-formed update: a field removed, retyped or blown up, or the whole thing replaced. */
function mutated(base: fc.Arbitrary<Record<string, unknown>>) {
  const junk = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.nat()),
    fc.object(),
    fc.string({ minLength: 5_000, maxLength: 6_000 }),
  );
  return fc.tuple(base, fc.nat(), junk, fc.boolean()).map(([update, pick, value, remove]) => {
    const copy = structuredClone(update);
    const paths: (string | number)[][] = [];
    const walk = (node: unknown, path: (string | number)[]) => {
      if (node === null || typeof node !== "object") return;
      for (const [key, child] of Object.entries(node)) {
        paths.push([...path, key]);
        walk(child, [...path, key]);
      }
    };
    walk(copy, []);
    const path = paths[pick % paths.length]!;
    let parent = copy as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    if (remove) delete parent[last];
    else parent[last] = value;
    return copy;
  });
}

/** Hostile, mutated and garbage updates, 4:4:2. */
export function fuzzUpdates(targets: FuzzTargets): fc.Arbitrary<Record<string, unknown>> {
  const hostile = hostileUpdates(targets);
  const garbage = fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 3 }), {
    maxKeys: 4,
  });
  return fc.oneof(
    { weight: 4, arbitrary: hostile },
    { weight: 4, arbitrary: mutated(hostile) },
    { weight: 2, arbitrary: garbage.map((fields) => ({ update_id: FRESH_ID, ...fields })) },
  );
}
