// What a fault sees while a scenario's load runs, and what it reports: every fault counts what it
// really did (kills, pauses, restarts), so the report proves each fault happened.
import { setTimeout as sleep } from "node:timers/promises";
import type { CustomerResult, FlashSale, InvariantResult, Step } from "@orderbot/testkit";
import type { ChaosEnvironment } from "./environment.ts";
import type { Sizes } from "./sizes.ts";

export interface FaultCounts {
  botKills: number;
  workerKills: number;
  /** Worker kills that hit the outbox relay's leader while it held claimed messages. */
  workerKillsMidBatch: number;
  /** SIGSTOPs, and how many of them caught the bot holding an order lock that then expired. */
  pauses: number;
  orderLocksExpiredWhilePaused: number;
  redisRestarts: number;
  postgresRestarts: number;
  /** Charges Telegram took while PostgreSQL was down (their successful_payment met the outage). */
  chargesDuringOutage: number;
  /** Filled from the kit's records after the load: injected 429s and 500s, duplicates, lost responses. */
  telegram429: number;
  telegram500: number;
  duplicateDeliveries: number;
  droppedResponses: number;
  /** Times Redis was filled past its maxmemory (every new key refused with OOM). */
  redisFills: number;
  /** Updates flooders sent, and how many of them the bots turned away as rate-limited. */
  floodUpdates: number;
  floodLimited: number;
  /** Charges taken while the webhook was unreachable, and those the reconciliation recorded first. */
  lateCharges: number;
  lateChargesReconciled: number;
}

/** A Redis outage as users lived it: listed when its fault starts; `start` is 0 until Redis stops, `end` 0 until it is back. */
export interface OutageRecord {
  start: number;
  end: number;
}

export interface FaultContext {
  env: ChaosEnvironment;
  sizes: Sizes;
  sale: FlashSale;
  counts: FaultCounts;
  outages: OutageRecord[];
  gates: Gates;
  random: () => number;
  /** A line of evidence for the report ("kill -9 bot-2 (pid 123) with an Order press in flight"). */
  note(line: string): void;
  /** Resolves this share of the arrival window after the sale opened (or when the load is over). */
  at(share: number): Promise<void>;
  /** True once every user has finished. */
  loadDone(): boolean;
  /**
   * One more shopper beside the crowd, so that a fault meets a user at the step it needs: the
   * operator restocks a product by one unit, and the shopper reserves it and pays or walks away
   * (the reservation expires and its notice goes through the outbox). `gate` holds them before a
   * step; by default at an armed Pay gate like the crowd, never at Order. The press counts in the
   * run's checks like any other, and in the outage check.
   */
  shopper(intent: "pay" | "abandon", gate?: (step: Step) => Promise<void>): Promise<CustomerResult>;
  /**
   * Updates the shop may acknowledge without recording them as handled (the "updates" check
   * allows them, unless they carry money): a flooder's updates over the rate limit.
   */
  allowUnrecorded(updateIds: Iterable<number>): void;
  /** A check of the fault's own, run with the scenario's invariants once the shop has settled. */
  checkAfterSettle(check: () => Promise<InvariantResult>): void;
}

/** One fault: runs beside the load, returns when it has done its damage and the shop may recover. */
export type Fault = {
  label: string;
  run: (ctx: FaultContext) => Promise<void>;
  happened: (counts: FaultCounts) => boolean;
};

export function emptyCounts(): FaultCounts {
  return {
    botKills: 0,
    workerKills: 0,
    workerKillsMidBatch: 0,
    pauses: 0,
    orderLocksExpiredWhilePaused: 0,
    redisRestarts: 0,
    postgresRestarts: 0,
    chargesDuringOutage: 0,
    telegram429: 0,
    telegram500: 0,
    duplicateDeliveries: 0,
    droppedResponses: 0,
    redisFills: 0,
    floodUpdates: 0,
    floodLimited: 0,
    lateCharges: 0,
    lateChargesReconciled: 0,
  };
}

/**
 * Holds users just before a step (pressing Order, paying) until a fault opens the gates: a Redis
 * outage then meets users who really are at that step, instead of relying on timing luck.
 */
export class Gates {
  private readonly armed = new Set<Step>();
  private readonly waiting = new Map<Step, number>();
  private opened!: () => void;
  private released = new Promise<void>((resolve) => (this.opened = resolve));

  arm(...steps: Step[]): void {
    for (const step of steps) this.armed.add(step);
  }

  waitingAt(step: Step): number {
    return this.waiting.get(step) ?? 0;
  }

  openAll(): void {
    this.armed.clear();
    this.opened();
    this.released = new Promise<void>((resolve) => (this.opened = resolve));
  }

  /** Waits at an armed gate, at most `maxWaitMs` (a held payer's reservation must not run out). */
  async pass(step: Step, maxWaitMs = 3_000): Promise<void> {
    if (!this.armed.has(step)) return;
    this.waiting.set(step, this.waitingAt(step) + 1);
    const controller = new AbortController();
    await Promise.race([
      this.released,
      sleep(maxWaitMs, undefined, { signal: controller.signal }).catch(() => undefined),
    ]);
    controller.abort();
    this.waiting.set(step, this.waitingAt(step) - 1);
  }
}

/**
 * Two payers of the fault's own beside the crowd, and the Pay gate armed: resolves once two users
 * are held at Pay (or after `timeoutMs`), so that a fault started then meets users with an order
 * to pay even when the crowd has thinned or sold out. The crowd may buy the unit restocked for a
 * payer first: one who placed no order is replaced, four payers at most. `payers` settle with how
 * each one ended.
 */

/**
 * Two payers of the fault's own beside the crowd, held at a Pay gate of their own, and the crowd's
 * Pay gate armed: resolves once one is held and the other had a second more to join it (or after
 * `timeoutMs`), so that a fault started then meets users with an order to pay, whatever the crowd
 * does. The crowd may buy the unit restocked for a payer first: one who placed no order is
 * replaced, four payers at most. A payer waits at most until a second before its reservation would
 * run out, so `release` must follow at once: do the fault's slow preparation first. `payers` settle
 * with how each one ended.
 */
export async function heldPayers(
  ctx: FaultContext,
  timeoutMs: number,
): Promise<{ payers: Promise<CustomerResult>[]; waiting: () => number; release: () => void }> {
  const own = new Gates();
  own.arm("pay");
  ctx.gates.arm("pay"); // the crowd's payers too, for as long as a payer may wait
  const holdMs = ctx.sizes.reservationSeconds * 1000 - 1_000;
  const gate = (step: Step) => (step === "pay" ? own.pass(step, holdMs) : Promise.resolve());
  const payers: Promise<CustomerResult>[] = [];
  let held = false;
  const start = () => {
    const payer = ctx.shopper("pay", gate);
    payers.push(payer);
    void payer.then(
      (result) => {
        if (!held && payers.length < 4 && result.press?.outcome !== "placed") start();
      },
      () => undefined, // the fault that awaits `payers` sees the failure
    );
  };
  start();
  start();
  // The first held, then a moment for the second: the first's hold is running out meanwhile.
  held = await until(() => own.waitingAt("pay") >= 1, timeoutMs);
  if (held) await until(() => own.waitingAt("pay") >= 2, 1_000);
  return {
    payers,
    waiting: () => own.waitingAt("pay") + ctx.gates.waitingAt("pay"),
    release: () => own.openAll(),
  };
}

/**
 * Two placers of the fault's own beside the crowd: each fills a cart and is held just before
 * Checkout until `release` (up to a minute: nothing of theirs is reserved yet that could run out),
 * so that a Redis outage meets a press of Order even when the crowd has gone past that step.
 * Resolves once both are held (or after `timeoutMs`).
 */
export async function heldPlacers(
  ctx: FaultContext,
  timeoutMs: number,
): Promise<{ placers: Promise<CustomerResult>[]; release: () => void }> {
  const own = new Gates();
  own.arm("order");
  const gate = (step: Step) => (step === "order" ? own.pass(step, 60_000) : Promise.resolve());
  const placers = [ctx.shopper("pay", gate), ctx.shopper("pay", gate)];
  await until(() => own.waitingAt("order") >= 2, timeoutMs);
  return { placers, release: () => own.openAll() };
}

/** How one of a fault's own shoppers ended, for the notes: a failed check then explains itself. */
export function paidWhen(result: CustomerResult): string {
  if (result.error) return `stopped (${result.error})`;
  if (result.soldOutOnCard) return "sold out before adding to the cart";
  if (result.press && result.press.outcome !== "placed")
    return `${result.press.outcome} ("${result.press.answer ?? ""}")`;
  const payment = result.payment;
  if (!payment) return `no payment (${result.press?.outcome ?? "no order"})`;
  return payment.answer ? `${payment.status} ("${payment.answer}")` : payment.status;
}

/** Waits until a payment was recorded since `start` (ms), at most `timeoutMs`; true if one was. A
 * failed query counts as none yet: the fault waiting on it must go on. */
export function paymentSince(
  ctx: FaultContext,
  start: number,
  timeoutMs: number,
): Promise<boolean> {
  const where = { createdAt: { gte: new Date(start) } };
  const count = () => ctx.env.db.payment.count({ where }).catch(() => 0); // PostgreSQL restarting: none yet
  return until(async () => (await count()) > 0, timeoutMs);
}

/** Polls `check` every 50 ms until it holds or `timeoutMs` passes; true if it held. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(50);
  }
  return false;
}
