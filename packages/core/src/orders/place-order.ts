import type { CoreDeps } from "../deps.ts";
import { BUSY, invalid, UNAVAILABLE } from "../results.ts";
import { parseWith } from "../validation.ts";
import {
  placeOrderSchema,
  type PlaceOrderInput,
  type ValidPlaceOrder,
} from "./place-order-input.ts";
import { findOrderByKey } from "./idempotency-key.ts";
import type { KnownProduct } from "./price-order.ts";
import { replayOf, reserveOrder, type PlaceOrderResult } from "./reserve.ts";

/**
 * Reserves stock for an order. The per-user `checkout` lock (no wait) turns a double tap into
 * "busy" before it reaches PostgreSQL; everything that must hold — no oversell, the open-order cap,
 * one order per idempotency key — is enforced by `reserveOrder`'s transaction. Redis down → the
 * kind's policy refuses: "unavailable", nothing written. A replay of an order placed already is
 * answered with that order: by reserveOrder (the unique key, or a refusal's look-up), by the wait
 * for a twin, or, with Redis down, by a look-up; a new order is never looked up.
 */
export function createPlaceOrder(
  deps: CoreDeps,
): (input: PlaceOrderInput, known?: readonly KnownProduct[]) => Promise<PlaceOrderResult> {
  const schema = placeOrderSchema(deps.config);

  async function place(
    raw: PlaceOrderInput,
    known?: readonly KnownProduct[],
  ): Promise<PlaceOrderResult> {
    const parsed = parseWith(schema, raw);
    if (!parsed.ok) return invalid(parsed.problems);
    const input = parsed.value;
    const outcome = await deps.locks.withLock(
      { kind: "checkout", id: input.userId },
      ({ signal }) => reserveOrder(deps, input, signal, known),
      { waitMs: 0, requestId: deps.requestId() },
    );
    if (outcome.status === "ok") return outcome.value;
    if (outcome.status === "busy") return awaitTwin(input);
    // Redis is down and nothing is placed; a replay of an intent placed already is still
    // answered, from the database.
    return (await replayOf(deps, input)) ?? UNAVAILABLE;
  }

  /**
   * The user's checkout is held. If the holder is placing this same intent (a double tap on one
   * button, Telegram re-delivering the update), its order is the answer: wait for the holder to
   * finish (woken by its release, bounded by replayWaitMs) and look the key up. Never places an
   * order itself: a different intent gets "busy".
   */
  async function awaitTwin(input: ValidPlaceOrder): Promise<PlaceOrderResult> {
    if (deps.config.replayWaitMs === 0) return BUSY;
    const outcome = await deps.locks.withLock(
      { kind: "checkout", id: input.userId },
      () => findOrderByKey(deps.db, input),
      { waitMs: deps.config.replayWaitMs, requestId: deps.requestId() },
    );
    if (outcome.status === "ok" && outcome.value)
      return { status: "ok", order: outcome.value, replayed: true };
    return outcome.status === "unavailable" ? UNAVAILABLE : BUSY;
  }

  return async function placeOrder(raw, known) {
    const started = performance.now();
    const result = await place(raw, known);
    const outcome =
      result.status === "ok" && result.replayed ? "replayed" : result.status.replace(/-/g, "_");
    deps.metrics.orders.inc({ outcome });
    deps.metrics.placeSeconds.observe({ outcome }, (performance.now() - started) / 1000);
    if (result.status === "ok" && !result.replayed) {
      deps.logger.info(
        {
          user: deps.mask(result.order.userId),
          order: result.order.id,
          total: result.order.totalMinor,
        },
        "order reserved",
      );
    } else if (result.status !== "ok") {
      deps.logger.debug({ user: maskedUser(deps, raw.userId), outcome }, "order not placed");
    }
    return result;
  };
}

function maskedUser(deps: CoreDeps, userId: unknown): string {
  return typeof userId === "bigint" || typeof userId === "number" || typeof userId === "string"
    ? deps.mask(userId)
    : "invalid";
}
