import { limit } from "@grammyjs/ratelimiter";
import type { MiddlewareFn } from "grammy";
import type { Logger, Redis } from "@orderbot/platform";
import type { BotContext } from "../context.ts";

export interface RateLimitOptions {
  /** The shared Redis: the count is per user across every replica. */
  redis: Pick<Redis, "multi">;
  /** Key prefix; the user part is `mask(userId)`, never the raw id. */
  prefix: string;
  mask: (id: number) => string;
  limit: number;
  windowMs: number;
  /** Counts every count that failed open (orderbot_rate_limit_fail_open_total). */
  failedOpen?: { inc(): void };
  /** Told, at most once per FAIL_OPEN_WARN_MS, that limiting is off. */
  logger?: Logger;
}

/** One warning a minute is enough to be seen; a line per update would flood the log. */
const FAIL_OPEN_WARN_MS = 60_000;

/**
 * A per-user limit on what a user can make the bot do (messages and button presses), counted in
 * Redis. Payments are never limited: money already taken must always be recorded. A limited
 * button press is still answered (so no spinner is left); limited messages are dropped silently,
 * since replying to a flood would only feed it.
 *
 * Redis down does not take the bot down: the counter fails open (the request is let through),
 * counted and warned about, since limiting is then off for everyone.
 */
export function rateLimit(options: RateLimitOptions): MiddlewareFn<BotContext> {
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
  const counter = {
    /**
     * Counts and, if the count has no expiry yet, gives it one, in one transaction. (The plugin
     * sets the expiry with a second command after the first count: had that one failed, the
     * count would never expire and the user would stay limited for good.)
     */
    async incr(key: string): Promise<number> {
      try {
        const replies = await options.redis
          .multi()
          .incr(key)
          .pexpire(key, options.windowMs, "NX")
          .exec();
        const [error, count] = replies?.[0] ?? [new Error("transaction discarded")];
        if (error) throw error;
        return Number(count);
      } catch (error) {
        failOpen(error);
        return 1;
      }
    },
    /** Set with the count, above. */
    pexpire: async () => 1,
  };
  const limiter = limit<BotContext, typeof counter>({
    timeFrame: options.windowMs,
    limit: options.limit,
    storageClient: counter,
    keyPrefix: options.prefix,
    keyGenerator: (ctx) => (ctx.from ? options.mask(ctx.from.id) : undefined),
    // Told below, where it can be awaited.
    onLimitExceeded: () => undefined,
  });
  return async (ctx, next) => {
    if (ctx.preCheckoutQuery || ctx.msg?.successful_payment) return next();
    let allowed = false;
    await limiter(ctx, async () => {
      allowed = true;
      await next();
    });
    if (allowed) return;
    ctx.logger.debug("rate limited");
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: ctx.t("rate-limited") });
  };
}
