import type { Update } from "grammy/types";
import type { ProcessedUpdates } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import type { Logger } from "@orderbot/platform";
import { loggableError } from "../log-safety.ts";
import type { BotMetrics } from "../metrics.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { wellFormedUpdate } from "./parse.ts";
import { isActionable } from "./schema.ts";
import { inUpdateScope } from "./scope.ts";

/**
 * - ignored: not an update the features act on (a type the bot does not handle, or a forged or
 *   mangled payload); acknowledged, and nothing is run or stored;
 * - limited: its sender is over the rate limit; acknowledged (a button press is answered), and
 *   nothing is run or stored;
 * - handled: processed now and recorded;
 * - duplicate: already recorded (a re-delivery), nothing done;
 * - in-progress: another replica is running this update right now; the webhook answers 503 so
 *   that Telegram re-delivers later (a 200 would drop the update if that replica dies).
 */
export type UpdateOutcome = "ignored" | "limited" | "handled" | "duplicate" | "in-progress";

export interface UpdatePipelineDeps {
  botId: bigint;
  processed: ProcessedUpdates;
  locks: LockManager;
  rateLimiter: RateLimiter;
  /** Tells the sender of a limited update, if it needs an answer (a button press). Never throws. */
  refuse: (update: Update) => Promise<void>;
  /** Runs the features (grammY's bot.handleUpdate). Throws when the update must be re-delivered. */
  handle: (update: Update) => Promise<void>;
  metrics: BotMetrics;
  logger: Logger;
}

/** The type of an update, for metrics: "message", "callback_query", ... */
export function updateType(update: Update): string {
  return Object.keys(update).find((key) => key !== "update_id") ?? "unknown";
}

/**
 * First the per-user rate limit (one Redis round trip; payments exempt), so that a flooder's
 * updates never reach PostgreSQL or create lock keys. Then exactly-once effects from
 * at-least-once delivery: claim the update in Redis so two replicas never run it at once, skip it
 * if it is recorded already, run it, record it. If Redis is down the claim is skipped (the
 * `update` kind's policy is proceed-db-only): the record and idempotent handlers still make a
 * re-delivery harmless. The record (packages/db/src/processed-updates.ts) is read once, under
 * the claim: a check before it as well would spare a re-delivery (rare) one lock round trip and
 * cost every update one more statement.
 */
export function createUpdatePipeline(deps: UpdatePipelineDeps) {
  const { botId, processed, locks, handle, metrics } = deps;

  async function run(update: Update): Promise<UpdateOutcome> {
    const id = update.update_id;
    if (!isActionable(update)) return "ignored";
    if (!(await deps.rateLimiter.admits(update))) {
      await deps.refuse(update);
      return "limited";
    }
    const outcome = await locks.withLock(
      { kind: "update", id: `${botId}:${id}` },
      async () => {
        if (await processed.has(botId, id)) return "duplicate" as const;
        await handle(update);
        await processed.mark(botId, id);
        return "handled" as const;
      },
      { requestId: `update:${id}` },
    );
    if (outcome.status === "ok") return outcome.value;
    return "in-progress";
  }

  return async function processUpdate(received: Update): Promise<UpdateOutcome> {
    // The edge of every update, webhook or polling: nothing reads its texts before this.
    const update = wellFormedUpdate(received);
    const receivedAt = performance.now();
    const type = updateType(update);
    const end = metrics.updateSeconds.startTimer({ type });
    const log = deps.logger.child({ updateId: update.update_id, updateType: type });
    try {
      const outcome = await inUpdateScope(update.update_id, receivedAt, () => run(update));
      metrics.updates.inc({ type, outcome: outcome.replace("-", "_") });
      log.debug({ outcome, seconds: end() }, "update done");
      return outcome;
    } catch (error) {
      metrics.updates.inc({ type, outcome: "failed" });
      log.error(
        { err: loggableError(error), seconds: end() },
        "update failed; Telegram will re-deliver it",
      );
      throw error;
    }
  };
}

export type ProcessUpdate = ReturnType<typeof createUpdatePipeline>;
