import type { Update } from "grammy/types";
import type { ParkedUpdates } from "@orderbot/db";
import type { Logger } from "@orderbot/platform";
import { loggableError } from "../log-safety.ts";
import { carriesMoney } from "./money-updates.ts";
import { updateType } from "./pipeline.ts";

/**
 * Where the poller keeps an update that holds back every later one. getUpdates hands out at most
 * 100 updates from the oldest unconfirmed one, so one unfinished update would otherwise stop the
 * bot from fetching anything newer. A parked update is committed to PostgreSQL first and only then
 * confirmed to Telegram: it is never dropped, and is retried from memory (or, after a restart,
 * from the table) as before (docs/architecture.md, "Updates that carry money").
 */
export interface Parking {
  /** Every update parked by an earlier run, oldest first; null when the table cannot be read. */
  load(): Promise<Update[] | null>;
  /** Stores the updates; true once committed (false: keep them at Telegram, try again later). */
  park(updates: readonly Update[]): Promise<boolean>;
  /** Forgets a parked update that was handled or given up on. */
  release(updateId: number): void;
  /** How many updates are parked now (orderbot_updates_parked). */
  count(parked: number): void;
}

export interface ParkingOptions {
  store: ParkedUpdates;
  botId: bigint;
  logger: Logger;
  gauge?: { set(value: number): void };
}

export function createParking(options: ParkingOptions): Parking {
  const { store, botId, logger } = options;
  return {
    async load() {
      try {
        const rows = await store.list(botId);
        return rows.map((row) => JSON.parse(row.json) as Update);
      } catch (error) {
        logger.warn({ err: loggableError(error) }, "could not read the parked updates; will retry");
        return null;
      }
    },
    async park(updates) {
      try {
        const rows = updates.map((u) => ({ updateId: u.update_id, json: JSON.stringify(u) }));
        await store.park(botId, rows);
      } catch (error) {
        logger.warn({ err: loggableError(error) }, "could not park updates; they stay at Telegram");
        return false;
      }
      for (const update of updates) {
        logger.error(
          {
            updateId: update.update_id,
            updateType: updateType(update),
            money: carriesMoney(update),
          },
          "update parked: unfinished while later updates waited; retried from parked_updates",
        );
      }
      return true;
    },
    release(updateId) {
      // A row left behind is read at the next start and found handled: a duplicate, then removed.
      store.remove(botId, updateId).catch((error: unknown) => {
        logger.warn({ err: loggableError(error), updateId }, "could not remove a parked update");
      });
    },
    count(parked) {
      options.gauge?.set(parked);
    },
  };
}
