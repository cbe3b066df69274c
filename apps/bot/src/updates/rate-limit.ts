import type { Update } from "grammy/types";
import { LuaScript } from "@orderbot/lock";
import type { Logger, Redis } from "@orderbot/platform";
import { carriesMoney } from "./money-updates.ts";

export interface RateLimitOptions {
  /** The shared Redis: the count is per user across every replica. */
  redis: Pick<Redis, "evalsha" | "eval">;
  /** Key prefix; the user part is `mask(userId)`, never the raw id. */
  prefix: string;
  mask: (id: number) => string;
  limit: number;
  windowMs: number;
  /** Counts every count that failed open (orderbot_rate_limit_fail_open_total). */
  failedOpen?: { inc(): void };
  /** Told, at most once per FAIL_OPEN_WARN_MS, that limiting is off. */
  logger?: Logger;
  /**
   * Whether a group update's sender runs the shop from that group (OperatorRoster): operators
   * are not counted. A sale's fulfilment is one command per order, faster than any customer.
   */
  isOperator?: (chatId: number, userId: number) => Promise<boolean>;
}

export interface RateLimiter {
  /** Whether this update may go on: counted against its sender, one Redis round trip. */
  admits(update: Update): Promise<boolean>;
}

export interface RequestLimiter {
  /**
   * Whether a request of another way in (the storefront's API) may go on: counted in the same
   * window as the user's private updates, `requestId` unique per request.
   */
  admitsRequest(userId: number, requestId: string): Promise<boolean>;
}

/**
 * Admits an update (ARGV[1], its update_id) against the window's set of admitted ones (KEYS[1]):
 * 1 if it is in the set already (Telegram re-sent it, or the poller retries it: one update counts
 * once), or there is room and it is added; 0 when the window is full. The set expires with its
 * window, set with the first member, and never holds more than the limit (ARGV[2]) of ids.
 * Sent by its SHA (EVALSHA), its source only when Redis does not know it yet.
 */
const ADMIT = new LuaScript(`if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3], 'NX')
return 1`);

/** One warning a minute is enough to be seen; a line per update would flood the log. */
const FAIL_OPEN_WARN_MS = 60_000;

/**
 * The user an update is counted against, or undefined when it is never limited:
 * - money (pre_checkout_query, successful_payment, refunded_payment): a buyer must always be
 *   answered within Telegram's 10 s, and money already taken must always be recorded;
 * - membership changes (chat_member) and group upgrades (migrate_*): they keep the operator
 *   group's admin list and binding true, and only the group's admins can cause them.
 */
export function limitedSender(update: Update): number | undefined {
  if (update.pre_checkout_query || carriesMoney(update) || update.chat_member) return undefined;
  const message = update.message;
  if (message?.migrate_to_chat_id !== undefined || message?.migrate_from_chat_id !== undefined)
    return undefined;
  return (message ?? update.callback_query)?.from?.id;
}

/** The group or supergroup an update comes from, if any. */
function groupChat(update: Update): number | undefined {
  const chat = update.message?.chat ?? update.callback_query?.message?.chat;
  return chat?.type === "group" || chat?.type === "supergroup" ? chat.id : undefined;
}

/**
 * A per-user limit on what a user can make the bot do (messages and button presses), counted in
 * Redis by one script (ADMIT) over a fixed window. It counts updates, not deliveries: an update
 * Telegram re-sends after a 5xx, or the poller retries while PostgreSQL is down, is the same
 * update and is let through again, never counted twice.
 * It is the first thing an update meets, before the dedupe SELECT, the update lock and the
 * language read: a flooder costs one Redis round trip per update and nothing in PostgreSQL.
 * The admins of the operator group are let through over it (`isOperator`, asked only then).
 *
 * Redis down (or full) does not take the bot down: the counter fails open (the update is let
 * through), counted and warned about, since limiting is then off for everyone.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter & RequestLimiter {
  let warnedAt = -Infinity;
  const failOpen = (error: unknown) => {
    options.failedOpen?.inc();
    const now = performance.now();
    if (now - warnedAt < FAIL_OPEN_WARN_MS) return;
    warnedAt = now;
    // The message only: a Redis error carries no user data, the key (masked) is not logged.
    const reason = error instanceof Error ? error.message : String(error);
    options.logger?.warn(
      { reason },
      "rate limiter failing open: Redis did not count; not limiting",
    );
  };

  async function admit(key: string, member: number | string): Promise<boolean> {
    try {
      const { limit, windowMs } = options;
      const admitted = await ADMIT.run(options.redis, [key], [member, limit, windowMs]);
      return admitted === 1;
    } catch (error) {
      failOpen(error);
      return true;
    }
  }

  return {
    async admits(update) {
      const sender = limitedSender(update);
      if (sender === undefined) return true;
      // Groups have a count of their own: an operator's commands there never use up what the
      // same person may do as a customer in private.
      const group = groupChat(update);
      const key = `${options.prefix}${options.mask(sender)}${group === undefined ? "" : ":groups"}`;
      if (await admit(key, update.update_id)) return true;
      // Over the limit: only now is it worth asking whether this is an operator in their group.
      return group !== undefined && options.isOperator !== undefined
        ? options.isOperator(group, sender)
        : false;
    },
    admitsRequest: (userId, requestId) =>
      admit(`${options.prefix}${options.mask(userId)}`, `request:${requestId}`),
  };
}
