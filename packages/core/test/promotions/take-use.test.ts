// The limited-use code's home (src/promotions/take-use.ts): customers on connections of their own
// take uses of one code at once, and exactly the first N get one, one each. The same race read
// first and written after (a barrier between, so the race is certain) gives out more uses than
// the code has: the check is not vacuous.
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, runTransaction, type Database } from "@orderbot/db";
import { barrier, useTestDatabase } from "@orderbot/testkit";
import { takePromoUse } from "../../src/promotions/take-use.ts";

const testDb = useTestDatabase();
const USES = 5;
const CUSTOMERS = 20;
const clients: Database[] = [];
afterAll(() => Promise.all(clients.map((db) => db.$disconnect())));

/** One client a racer, as separate shop instances would have. */
function client(i: number): Database {
  while (clients.length <= i) clients.push(createDatabase({ url: testDb.url, poolMax: 1 }));
  return clients[i]!;
}

async function newCode(code: string, perCustomer = 1) {
  return testDb.db.promoCode.create({
    data: {
      code,
      kind: "PERCENT",
      value: 10,
      totalUses: USES,
      remainingUses: USES,
      perCustomer,
      createdBy: "op:test",
    },
  });
}

let seq = 0;
async function newOrder(userId: bigint): Promise<number> {
  const n = ++seq;
  const [row] = await testDb.db.$queryRaw<{ id: number }[]>`
    INSERT INTO orders (public_id, user_id, chat_id, status, total_minor, currency, expires_at,
                        idempotency_key, updated_at)
    VALUES (${`use-${n}`}, ${userId}, ${userId}, 'RESERVED', 9, 'XTR', now() + interval '1 hour',
            ${`use-${n}`}, now())
    RETURNING id`;
  return row!.id;
}

/** A refusal rolls the racer's transaction back, as the reservation does. */
class Refused extends Error {
  constructor(readonly outcome: string) {
    super(outcome);
  }
}

/** Each racer takes a use for an order of their own, in a transaction of their own, all at once. */
async function race(codeId: number, users: bigint[]): Promise<string[]> {
  const orders = await Promise.all(users.map(newOrder));
  const now = new Date();
  return Promise.all(
    users.map((userId, i) =>
      runTransaction(client(i), async (tx) => {
        const outcome = await takePromoUse(tx, { codeId, userId, orderId: orders[i]!, now });
        if (outcome !== "taken") throw new Refused(outcome);
        return outcome;
      }).catch((error: unknown) => {
        if (error instanceof Refused) return error.outcome;
        throw error;
      }),
    ),
  );
}

async function usesOf(codeId: number) {
  const code = await testDb.db.promoCode.findUniqueOrThrow({ where: { id: codeId } });
  const uses = await testDb.db.promoUse.count({ where: { codeId, returnedAt: null } });
  return { remaining: code.remainingUses, uses };
}

const crowd = (from: number) => Array.from({ length: CUSTOMERS }, (_, i) => BigInt(from + i));
const count = (outcomes: string[], outcome: string) => outcomes.filter((o) => o === outcome).length;

describe("a code good for its first 5 uses", () => {
  it(`gives exactly ${USES} of ${CUSTOMERS} racing customers a use`, async () => {
    const code = await newCode("FIRST5");
    const outcomes = await race(code.id, crowd(1_000));
    expect(count(outcomes, "taken")).toBe(USES);
    expect(count(outcomes, "unavailable")).toBe(CUSTOMERS - USES);
    expect(await usesOf(code.id)).toEqual({ remaining: 0, uses: USES });
  });

  it("gives one customer racing with several orders one use, per_customer 1", async () => {
    const code = await newCode("ONEEACH");
    const outcomes = await race(
      code.id,
      Array.from({ length: 4 }, () => 7_777n),
    );
    expect(count(outcomes, "taken")).toBe(1);
    expect(count(outcomes, "used-by-you")).toBe(3);
    expect(await usesOf(code.id)).toEqual({ remaining: USES - 1, uses: 1 });
  });

  it("gives out more uses than it has when each racer reads the count, then writes it", async () => {
    const code = await newCode("NAIVE");
    const users = crowd(2_000);
    const orders = await Promise.all(users.map(newOrder));
    const allRead = barrier(CUSTOMERS);
    await Promise.all(
      users.map(async (userId, i) => {
        const { remainingUses } = await client(i).promoCode.findUniqueOrThrow({
          where: { id: code.id },
        });
        await allRead();
        if (remainingUses <= 0) return;
        await client(i).$executeRaw`
          UPDATE promo_codes SET remaining_uses = ${remainingUses - 1} WHERE id = ${code.id}`;
        await client(i).$executeRaw`
          INSERT INTO promo_uses (code_id, user_id, slot, order_id)
          VALUES (${code.id}, ${userId}, 1, ${orders[i]!})`;
      }),
    );
    expect(await usesOf(code.id)).toEqual({ remaining: USES - 1, uses: CUSTOMERS });
  });
});
