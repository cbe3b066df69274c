import type { Logger, Redis } from "@orderbot/platform";

export interface LanguagePreferencesDeps {
  redis: Pick<Redis, "get" | "set">;
  /** Key prefix, e.g. "prod:shopbot". */
  namespace: string;
  /** User id → opaque key part (HMAC): no Telegram id appears in a Redis key. */
  mask: (userId: bigint | number) => string;
  /** How long a choice is kept after it was last made (default 180 days). */
  ttlMs?: number;
  logger: Logger;
}

/**
 * The language a user picked with /language. Kept in Redis: losing it costs nothing but a
 * fallback to the language Telegram reports for the user, so a Redis outage reads as "no choice
 * made" and a failed save is reported to the caller instead of failing the update.
 */
export interface LanguagePreferences {
  get(userId: bigint | number): Promise<string | null>;
  /** False when it could not be saved (Redis unreachable). */
  set(userId: bigint | number, locale: string): Promise<boolean>;
}

export function createLanguagePreferences(deps: LanguagePreferencesDeps): LanguagePreferences {
  const ttlMs = deps.ttlMs ?? 180 * 24 * 3_600_000;
  const key = (userId: bigint | number) => `${deps.namespace}:lang:${deps.mask(userId)}`;
  return {
    async get(userId) {
      try {
        return await deps.redis.get(key(userId));
      } catch (error) {
        deps.logger.warn(
          { err: error },
          "language preference unreadable; using the user's Telegram language",
        );
        return null;
      }
    },
    async set(userId, locale) {
      try {
        await deps.redis.set(key(userId), locale, "PX", ttlMs);
        return true;
      } catch (error) {
        deps.logger.warn({ err: error }, "language preference not saved");
        return false;
      }
    },
  };
}
