import { SEND_PRIORITY, type Place } from "@orderbot/platform";
import type { Relay, RelayRunContext } from "./relay.ts";
import type { SendResult } from "./retry.ts";

/**
 * The relay's place in the bot's shared send budget (Redis), after the in-process pacer gave it a
 * slot: the pacer keeps this leader's calls in order, the budget counts every instance's, the bots'
 * replies included. Order notices go at priority 1, below the bots' replies. When Redis does not
 * answer, the pacer alone paces the relay: at OUTBOX_GLOBAL_PER_SECOND, below Telegram's limit, so
 * sends go on at a safe local rate while the bots' replies are not counted (docs/worker.md).
 */
export async function takeBudget(
  relay: Relay,
  chatId: bigint,
  deadline: number,
  ctx: RelayRunContext,
): Promise<
  { go: true; place?: Place } | { go: false; delayMs: number; reason: "paced" | "stopped" }
> {
  const budget = relay.deps.sendBudget;
  if (!budget) return { go: true };
  const taken = await budget.take(chatId, SEND_PRIORITY.notice, {
    maxWaitMs: Math.max(0, deadline - relay.now()),
    signal: ctx.signal,
  });
  if (taken.kind === "aborted") return { go: false, delayMs: 0, reason: "stopped" };
  if (taken.kind === "later") return { go: false, delayMs: taken.waitMs, reason: "paced" };
  // Unavailable: counted (orderbot_send_budget_takes_total), not logged per message.
  return taken.kind === "taken" ? { go: true, place: taken.place } : { go: true };
}

/** The call that took `place` has its answer; then a 429 pauses the bot (pauseOnRateLimit). */
export async function answeredBudget(relay: Relay, place: Place | undefined): Promise<void> {
  if (!place) return;
  await relay.deps.sendBudget?.answered(place).catch(() => undefined);
}

/** A 429 pauses every sender of the bot, every bot and worker instance, for its retry_after. */
export async function pauseOnRateLimit(relay: Relay, result: SendResult): Promise<void> {
  const budget = relay.deps.sendBudget;
  if (!budget || result.kind !== "rate-limited") return;
  await budget.pause(result.retryAfterMs).catch((error: unknown) => {
    relay.deps.logger.warn({ err: error }, "send budget unavailable: pause kept locally");
  });
}
