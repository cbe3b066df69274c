import type { Database } from "@orderbot/db";
import type { FakeTelegram } from "@orderbot/fake-telegram";
import type { OrderPress } from "./customer.ts";
import type { InvariantResult } from "./invariants.ts";
import type { StockCommand } from "./operator.ts";

/** What a run recorded on the Telegram side: the kit's delivery log plus what users and operators saw. */
export interface EffectInputs {
  kit: FakeTelegram;
  /** Every press of Order the simulated users made. */
  presses: OrderPress[];
  /** Every /stock command the operator sent. */
  stockCommands: StockCommand[];
  /** Only what happened since then belongs to this run (a database that outlives runs, like the demo's). */
  since?: Date;
  /**
   * Updates a polling bot logged as skipped after its retry window (a long outage): they are
   * confirmed to Telegram without taking effect, as designed for updates without money. An update
   * that carries money among them is a violation.
   */
  skippedUpdateIds?: ReadonlySet<number>;
}

type Problem = { what: string };

const ACTIONABLE = new Set(["message", "callback_query", "pre_checkout_query"]);

function verdict(name: string, problems: Problem[]): InvariantResult {
  return {
    name,
    ok: problems.length === 0,
    violations: problems.length,
    examples: problems.slice(0, 5).map((p) => p.what),
  };
}

/** The idempotency key the bot stores for a press of Order (user scope + the pressed message and data). */
export function pressKey(
  press: Pick<OrderPress, "userId" | "chatId" | "messageId" | "data">,
): string {
  return `${press.userId}:tap:${press.chatId}:${press.messageId}:${press.data}`;
}

/** " from 7000000012 in private: c:1", for a message or a press: who, where and what, to trace it. */
function origin(update: object): string {
  const u = update as Record<string, unknown>;
  const item = (u.message ?? u.callback_query) as
    | { from?: { id: number }; chat?: { type: string }; message?: { chat?: { type: string } } }
    | undefined;
  const chat = item?.chat ?? item?.message?.chat;
  const what =
    (u.callback_query as { data?: string } | undefined)?.data ??
    (u.message as { text?: string } | undefined)?.text?.slice(0, 24);
  return item ? ` from ${item.from?.id} in ${chat?.type ?? "?"}${what ? `: ${what}` : ""}` : "";
}

/** For a press: what the bot answered it ("Too many requests" is the rate limit), or that it never did. */
function pressAnswer(kit: EffectInputs["kit"], update: object): string {
  const id = (update as { callback_query?: { id: string } }).callback_query?.id;
  if (id === undefined) return "";
  const answer = kit
    .callsTo("answerCallbackQuery")
    .find((call) => call.params.callback_query_id === id);
  return answer
    ? `; the press was answered "${String(answer.params.text ?? "")}"`
    : "; the press was never answered";
}

/**
 * Liveness first: the bot took every update in the end (a bot that fails an update again and
 * again makes Telegram give up on it). Then "every update the kit delivered with a 2xx took effect
 * exactly once", checked three ways:
 * the bot recorded every delivered update (and nothing the kit never sent); every order traces back
 * to one delivered press of Order, every press the user saw succeed has its order, and a press the
 * user was told failed has none, one order per press at most; every /stock change the operator was
 * told about is in the ledger once.
 */
export async function checkEffects(db: Database, inputs: EffectInputs): Promise<InvariantResult[]> {
  const botId = BigInt(inputs.kit.token.split(":")[0]!);
  const delivered = inputs.kit.deliveries.filter(
    (u) => u.status === "delivered" && ACTIONABLE.has(u.type),
  );
  const created = new Set(inputs.kit.deliveries.map((u) => u.update.update_id));
  const since = inputs.since;
  const firstUpdate = Math.min(
    ...inputs.kit.deliveries.map((u) => u.update.update_id).filter((id) => id > 0),
  );
  const processed = await db.processedUpdate.findMany({
    where: { botId, ...(since ? { updateId: { gte: BigInt(firstUpdate) } } : {}) },
    select: { updateId: true },
  });
  const recorded = new Set(processed.map((p) => Number(p.updateId)));
  const updateProblems: Problem[] = [];
  const skipped = inputs.skippedUpdateIds ?? new Set<number>();
  for (const u of inputs.kit.deliveries) {
    const message = u.update.message as Record<string, unknown> | undefined;
    if (
      skipped.has(u.update.update_id) &&
      (message?.successful_payment || message?.refunded_payment)
    )
      updateProblems.push({ what: `update ${u.update.update_id} carries money and was skipped` });
  }
  for (const u of delivered) {
    if (skipped.has(u.update.update_id)) continue;
    if (!recorded.has(u.update.update_id))
      updateProblems.push({
        what: `update ${u.update.update_id} (${u.type}${origin(u.update)}) answered 2xx but not recorded as handled${pressAnswer(inputs.kit, u.update)}`,
      });
  }
  for (const id of recorded)
    if (!created.has(id)) updateProblems.push({ what: `update ${id} recorded but never sent` });

  const deliveredIds = new Set(delivered.map((u) => u.update.update_id));
  const orders = await db.order.findMany({
    where: since ? { createdAt: { gte: since } } : {},
    select: { publicId: true, userId: true, idempotencyKey: true, status: true },
  });
  const byKey = new Map(orders.map((o) => [o.idempotencyKey, o]));
  const pressByKey = new Map(inputs.presses.map((p) => [pressKey(p), p]));
  const orderProblems: Problem[] = [];
  for (const order of orders) {
    const press = pressByKey.get(order.idempotencyKey);
    if (!press)
      orderProblems.push({ what: `order ${order.publicId} has no press of Order behind it` });
    else if (!deliveredIds.has(press.updateId))
      orderProblems.push({
        what: `order ${order.publicId} from update ${press.updateId}, which was never delivered`,
      });
  }
  for (const press of inputs.presses) {
    const order = byKey.get(pressKey(press));
    if (press.outcome === "placed" && order?.publicId !== press.orderId) {
      orderProblems.push({
        what: `update ${press.updateId}: the user was shown order ${press.orderId}, the database has ${order?.publicId ?? "none"}`,
      });
    }
    // A press the bot gave up on may have placed its order before failing: the user was told
    // nothing, and the reservation runs out like any other. Told something else, it must not exist.
    const untold = skipped.has(press.updateId) && !press.answer;
    if (press.outcome !== "placed" && order && !untold) {
      orderProblems.push({
        what: `update ${press.updateId}: the user was told "${press.answer ?? press.outcome}", yet order ${order.publicId} exists`,
      });
    }
  }
  const pressesPerUser = new Map<string, number>();
  for (const p of inputs.presses)
    pressesPerUser.set(String(p.userId), (pressesPerUser.get(String(p.userId)) ?? 0) + 1);
  const ordersPerUser = new Map<string, number>();
  for (const o of orders)
    ordersPerUser.set(String(o.userId), (ordersPerUser.get(String(o.userId)) ?? 0) + 1);
  for (const [user, n] of ordersPerUser) {
    const presses = pressesPerUser.get(user) ?? 0;
    if (n > presses)
      orderProblems.push({
        what: `user ${user.slice(-4)}: ${n} orders from ${presses} presses of Order`,
      });
  }

  const stockProblems = await checkStockCommands(db, inputs.stockCommands, skipped, since);
  const undelivered = inputs.kit.deliveries
    .filter((u) => u.status === "dropped" || u.status === "pending")
    .map((u) => ({
      what: `update ${u.update.update_id} (${u.type}) ${u.status} after ${u.attempts.length} attempts: ${u.attempts.at(-1)?.error ?? u.reason ?? ""}`,
    }));
  return [
    verdict("every update was delivered in the end: none given up, none left pending", undelivered),
    verdict("every update delivered with a 2xx was handled, and only those", updateProblems),
    verdict(
      "every press of Order took effect exactly once: none missing, none duplicated",
      orderProblems,
    ),
    verdict("every /stock change took effect exactly once", stockProblems),
  ];
}

/** The operator's ledger rows (actor op:...) against the changes the bot reported, and the stock levels it reported. */
async function checkStockCommands(
  db: Database,
  commands: StockCommand[],
  skipped: ReadonlySet<number>,
  since: Date | undefined,
): Promise<Problem[]> {
  const rows = await db.stockMovement.findMany({
    // Zero rows record an "=N" that found the stock at N: no change to match.
    where: { reason: "ADJUST", delta: { not: 0 }, ...(since ? { createdAt: { gte: since } } : {}) },
    select: { delta: true, product: { select: { sku: true } } },
  });
  const problems: Problem[] = [];
  const skus = new Set([...rows.map((r) => r.product.sku), ...commands.map((c) => c.sku)]);
  for (const sku of skus) {
    const ledger = rows.filter((r) => r.product.sku === sku).map((r) => r.delta);
    const ofSku = commands.filter((c) => c.sku === sku);
    if (!ledgerMatches(ledger, ofSku, skipped))
      problems.push({ what: ledgerMismatch(sku, ledger, ofSku) });
  }
  // What the bot told the operator is a sighting of the stock at that moment: never below zero.
  for (const c of commands) {
    if ((c.before ?? 0) < 0 || (c.after ?? 0) < 0 || (c.now ?? 0) < 0)
      problems.push({
        what: `/stock ${c.sku} ${c.change}: the operator was shown a negative stock: ${c.replies.join(" | ")}`,
      });
  }
  const unanswered = commands.filter(
    (c) => c.delivered && c.replies.length === 0 && !skipped.has(c.updateId),
  );
  for (const c of unanswered)
    problems.push({
      what: `/stock ${c.sku} ${c.change} (update ${c.updateId}) was delivered but got no reply`,
    });
  return problems;
}

/**
 * The ledger holds each change the operator was told of, once, and nothing else but changes of
 * commands the bot gave up on untold: one of those may have committed before it failed, as a press
 * of Order may have placed its order.
 */
export function ledgerMatches(
  ledger: number[],
  commands: StockCommand[],
  skipped: ReadonlySet<number>,
): boolean {
  const extra = [...ledger];
  for (const c of commands) {
    if (c.delta === undefined || c.delta === 0) continue;
    const at = extra.indexOf(c.delta);
    if (at === -1) return false;
    extra.splice(at, 1);
  }
  const untold = commands.filter((c) => c.delta === undefined && skipped.has(c.updateId));
  for (const delta of extra) {
    // "+N" and "-N" moved the stock by N; "=N" by whatever it found.
    const at = untold.findIndex((c) => c.change.startsWith("=") || Number(c.change) === delta);
    if (at === -1) return false;
    untold.splice(at, 1);
  }
  return true;
}

function ledgerMismatch(sku: string, ledger: number[], commands: StockCommand[]): string {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const told = commands.flatMap((c) => (c.delta ? [c.delta] : []));
  const replies = commands.map(
    (c) =>
      `${c.change} → ${c.replies.length === 0 ? (c.delivered ? "no reply" : "not delivered") : JSON.stringify(c.replies.map((r) => r.slice(0, 60)))}`,
  );
  return `${sku}: the operator was told of ${told.length} changes (${sum(told)} units), the ledger has ${ledger.length} (${sum(ledger)} units); commands: ${replies.join(", ")}`;
}
