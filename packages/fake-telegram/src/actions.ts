// What a simulated user's action hands back: the update it caused and a way to wait for the bot.
import type { DeliveryOutcome, QueuedUpdate } from "./delivery/queue.ts";
import type { TgUpdate } from "./types.ts";

/** An update a simulated user caused. */
export interface UserAction {
  update: TgUpdate;
  /** 0 when Telegram would not deliver it to the bot at all (allowed_updates, privacy mode). */
  updateId: number;
  /** Resolves when the bot has the update (webhook 2xx, getUpdates offset past it) or it was dropped. */
  handled(): Promise<DeliveryOutcome>;
}

export function actionOf(queued: QueuedUpdate): UserAction {
  return {
    update: queued.update,
    updateId: queued.update.update_id,
    handled: () => queued.settled,
  };
}
