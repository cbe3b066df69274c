import { z } from "zod";
import type { Logger, Redis } from "@orderbot/platform";

/** What the bot asked an operator to send as a reply to its message. */
export type OwedReply =
  { kind: "ship-note"; orderId: string } | { kind: "refund-note"; chargeId: string };

const owedReply = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ship-note"), orderId: z.string() }),
  z.object({ kind: z.literal("refund-note"), chargeId: z.string() }),
]);

export interface ReplyPromptsDeps {
  redis: Pick<Redis, "get" | "set" | "del">;
  /** Key prefix, e.g. "prod:shopbot". */
  namespace: string;
  /** Telegram id → opaque key part (HMAC): no Telegram id appears in a Redis key. */
  mask: (id: bigint | number) => string;
  /** How long a prompt waits for its reply (default 15 minutes). */
  ttlMs?: number;
  logger: Logger;
}

export type ReplyPrompts = ReturnType<typeof createReplyPrompts>;

/**
 * The replies the bot asked for by `force_reply` (a ship note, a refund note), per chat and person,
 * for a while: a plain message from someone who owes one is told to reply instead of being ignored.
 * Redis only, and only a hint: an outage or an expired prompt costs the hint, never a change.
 */
export function createReplyPrompts(deps: ReplyPromptsDeps) {
  const ttlMs = deps.ttlMs ?? 15 * 60_000;
  const key = (chatId: number, userId: number) =>
    `${deps.namespace}:reply:${deps.mask(chatId)}:${deps.mask(userId)}`;
  const quietly = async <T>(what: string, run: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      deps.logger.warn({ err: error }, `reply prompt not ${what}`);
      return fallback;
    }
  };
  return {
    asked: (chatId: number, userId: number, owed: OwedReply): Promise<void> =>
      quietly(
        "stored",
        async () =>
          void (await deps.redis.set(key(chatId, userId), JSON.stringify(owed), "PX", ttlMs)),
        undefined,
      ),
    /** The reply `userId` owes in `chatId`, or null. */
    owed: (chatId: number, userId: number): Promise<OwedReply | null> =>
      quietly("read", async () => parse(await deps.redis.get(key(chatId, userId))), null),
    answered: (chatId: number, userId: number): Promise<void> =>
      quietly("cleared", async () => void (await deps.redis.del(key(chatId, userId))), undefined),
  };
}

function parse(stored: string | null): OwedReply | null {
  if (stored === null) return null;
  try {
    const result = owedReply.safeParse(JSON.parse(stored));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
