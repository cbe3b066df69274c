// The admin rights table (core's rights/may-do.ts, docs/operations.md "Admin rights"): each
// row tried by an admin who lacks its right ("Add new admins": the kit's admins never hold it) is
// refused with its reason and changes nothing; the owner may. In-process bot, real PostgreSQL
// and Redis, the kit's Telegram.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import { REFUSALS as REFUSAL_KEYS, type RightedAction } from "../src/features/operator/rights.ts";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

let h: BotHarness;
let owner: SimulatedUser;
let admin: SimulatedUser;
let group: SimulatedGroup;
let paidOrder: string;
let chargeId: string;
let paymentId: number;
let findingId: number;

beforeAll(async () => {
  h = await startBotHarness({ env: { RATE_LIMIT_PER_WINDOW: "100" } });
  owner = h.kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
  admin = h.kit.createUser({ firstName: "Admin", languageCode: "en" });
  group = h.kit.createGroup({ title: "Ops", creator: owner, admins: [admin] });
  await h.shop.groups.bind({ chatId: group.id, title: "Ops", boundBy: OWNER_ID });

  const customer = 7_400_000_001;
  const placed = await h.shop.orders.placeOrder({
    userId: customer,
    chatId: customer,
    items: [{ sku: "MUG-PANDA", quantity: 1 }],
    idempotencyKey: "rights-test",
  });
  if (placed.status !== "ok") throw new Error(placed.status);
  paidOrder = placed.order.id;
  const paid = await h.shop.payments.confirmPayment({
    orderId: paidOrder,
    userId: customer,
    telegramChargeId: "rights-paid",
    amount: placed.order.totalMinor,
    currency: "XTR",
  });
  expect(paid.status).toBe("ok");
  // A charge for no order: a refund owed, which the buttons retry or mark.
  chargeId = "rights-orphan";
  const orphan = await h.shop.payments.confirmPayment({
    orderId: "QQQQQQQQ",
    userId: customer,
    telegramChargeId: chargeId,
    amount: 5,
    currency: "USD",
  });
  expect(orphan.status).toBe("refund-pending");
  paymentId = (await h.db.payment.findUniqueOrThrow({ where: { telegramChargeId: chargeId } })).id;
  findingId = (
    await h.db.starLedgerFinding.create({
      data: { kind: "charge-missing", telegramChargeId: "stxRights", telegramAmount: 25 },
    })
  ).id;
});
afterAll(() => h?.close());

/** The bot's answer to a command (its reply) or a button (its dialog). */
async function attempt(user: SimulatedUser, action: { text?: string; data?: string }) {
  if (action.data !== undefined) {
    const press = await user.pressData(action.data, { in: group, force: true });
    return (await press.answered()).text ?? "";
  }
  await user.send(action.text!, { in: group });
  return (await group.waitForMessage()).text ?? "";
}

/** Everything a row's action could change, read back. */
async function state() {
  const [order, payment, finding, product, promos, prices] = await Promise.all([
    h.db.order.findUniqueOrThrow({ where: { publicId: paidOrder } }),
    h.db.payment.findUniqueOrThrow({ where: { id: paymentId } }),
    h.db.starLedgerFinding.findUniqueOrThrow({ where: { id: findingId } }),
    h.db.product.findUniqueOrThrow({ where: { sku: "CUP-CELADON" } }),
    h.db.promoCode.count(),
    h.db.priceChange.count(),
  ]);
  const refunds = await h.db.outboxMessage.findMany({
    where: { method: "refundStarPayment" },
    select: { status: true, attempts: true, nextAttemptAt: true },
  });
  return { order, payment, finding, product, promos, prices, refunds };
}

/** One way in per row of the table: the compiler insists on a row for each action. */
const ATTEMPTS: Record<RightedAction, () => { text?: string; data?: string }[]> = {
  refund: () => [{ text: `/refund ${paidOrder}` }],
  "refund-retry": () => [{ data: callbacks.refundRetry.encode({ paymentId }) }],
  "refund-mark": () => [
    { data: callbacks.refundMark.encode({ paymentId }) },
    { text: `/refunded ${chargeId} paid back at the bank` },
  ],
  "finding-resolve": () => [{ data: callbacks.findingResolve.encode({ findingId }) }],
  price: () => [{ text: "/price CUP-CELADON 1" }],
  kind: () => [{ text: "/kind CUP-CELADON digital 1" }],
  "promo-add": () => [{ text: "/promo add ALMOSTFREE 99% uses=50" }],
  "catalog-import": () => [{ data: callbacks.catalogImport.encode({ messageId: 1 }) }],
};

const REFUSALS: Record<string, string> = {
  "op-refund-no-right":
    'Refunds need an owner, or an admin with the "Add new admins" right. Nothing was changed.',
  "op-finding-no-right":
    'Resolving a ledger finding needs an owner, or an admin with the "Add new admins" right. Nothing was changed.',
  "op-price-no-right":
    'Prices need an owner, or an admin with the "Add new admins" right. Nothing was changed.',
  "op-promo-no-right":
    'New promo codes need an owner, or an admin with the "Add new admins" right. Nothing was changed.',
  "op-import-no-right":
    'Importing a catalog needs an owner, or an admin with the "Add new admins" right. Nothing was changed.',
};

describe("the admin rights table", () => {
  it.each(Object.keys(REFUSAL_KEYS) as RightedAction[])(
    "%s: refused to an admin without its right, nothing changed",
    async (action) => {
      const before = await state();
      for (const way of ATTEMPTS[action]())
        expect(await attempt(admin, way)).toBe(REFUSALS[REFUSAL_KEYS[action]]);
      expect(await state()).toEqual(before);
    },
  );

  it("lets the owner do what the admin could not", async () => {
    expect(await attempt(owner, ATTEMPTS.price()[0]!)).toBe("CUP-CELADON: price 15 ⭐ → 1 ⭐.");
    expect(await attempt(owner, ATTEMPTS["promo-add"]()[0]!)).toMatch(/ALMOSTFREE/);
    expect(await attempt(owner, ATTEMPTS["finding-resolve"]()[0]!)).toBe(
      "Finding resolved: stxRights. Your name and the time are recorded.",
    );
    expect(await attempt(owner, ATTEMPTS.refund()[0]!)).toBe(
      `Order ${paidOrder} is refunded; the customer's payment is being returned.`,
    );
  });
});
