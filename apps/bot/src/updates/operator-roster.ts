import type { Logger } from "@orderbot/platform";

/** A bound operator group and its admins, as stored (GroupService.list). */
export interface RosterGroup {
  chatId: bigint;
  adminIds: readonly bigint[];
}

export interface OperatorRosterOptions {
  /** The bound groups with their stored admin lists: one PostgreSQL read. */
  load: () => Promise<readonly RosterGroup[]>;
  /** How long a snapshot answers "yes, an operator" before it is read again. */
  maxAgeMs: number;
  /**
   * How old a snapshot may be before a "no" reads it again: an admin list stored a moment ago
   * (the first command in a newly bound group refreshes it) is seen within this.
   */
  missRefreshMs: number;
  logger?: Logger;
}

export interface OperatorRoster {
  /** Whether the user administers the bound operator group `chatId`, by the stored admin list. */
  isOperator(chatId: number, userId: number): Promise<boolean>;
}

/**
 * Who runs the shop, for the rate limiter: the admins of every bound operator group, read from
 * PostgreSQL at most once per `missRefreshMs` per process (one query however many updates), so
 * telling an operator from a customer costs nothing per update. Only group updates ask: a
 * private chat never reaches it.
 *
 * It decides only who is counted against the per-user limit. Every operator action still goes
 * through the operator guard's fresh check, so a demoted admin exempt for up to `maxAgeMs` more
 * can do nothing an ordinary member cannot. A read that fails keeps the last snapshot (at worst,
 * operators are counted like customers until PostgreSQL answers).
 */
export function createOperatorRoster(options: OperatorRosterOptions): OperatorRoster {
  let operators = new Set<string>();
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  const entry = (chatId: number | bigint, userId: number | bigint) => `${chatId}:${userId}`;

  async function read(): Promise<void> {
    try {
      const groups = await options.load();
      operators = new Set(groups.flatMap((g) => g.adminIds.map((id) => entry(g.chatId, id))));
    } catch (error) {
      options.logger?.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        "could not read the operator groups' admins; keeping the last list",
      );
    } finally {
      // Also after a failure: a PostgreSQL outage costs one failed read per interval, not one per update.
      readAt = performance.now();
    }
  }

  const refresh = () => (reading ??= read().finally(() => (reading = undefined)));

  return {
    async isOperator(chatId, userId) {
      const age = performance.now() - readAt;
      if (age >= options.maxAgeMs) await refresh();
      if (operators.has(entry(chatId, userId))) return true;
      if (performance.now() - readAt < options.missRefreshMs) return false;
      await refresh();
      return operators.has(entry(chatId, userId));
    },
  };
}
