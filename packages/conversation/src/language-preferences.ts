import { readCacheEpoch, type Database } from "@orderbot/db";
import { LAST_SEEN_RESOLUTION_MS, type Customers } from "@orderbot/core/customers";
import type { Logger, Redis } from "@orderbot/platform";
import { isLocale, type Locale } from "./languages.ts";

export interface LanguagePreferencesDeps {
  /** Core's customers: where a customer and their language are kept. */
  customers: Pick<Customers, "get" | "record" | "setLanguage">;
  /** For the cache's epoch (`readCacheEpoch`). */
  db: Pick<Database, "$queryRaw">;
  redis: Pick<Redis, "get" | "set">;
  /** Key prefix, e.g. "prod:shopbot". */
  namespace: string;
  /** User id → opaque key part (HMAC): no Telegram id appears in a Redis key. */
  mask: (userId: bigint | number) => string;
  /**
   * How long Redis keeps a copy of a customer's language. Also how often a customer writing in
   * private is recorded again (their "last seen"): an hour, core's resolution of it.
   */
  ttlMs?: number;
  logger: Logger;
}

/**
 * A customer's language, kept with the customer in core (`customers.language`) so that the
 * worker's notices use it too, and cached in Redis so that an update costs one GET. The cache's
 * keys carry the database's epoch (`readCacheEpoch`): another database sharing the Redis never
 * reads these copies. A Redis outage reads through to PostgreSQL; PostgreSQL failing fails the
 * update, like any other query.
 */
export type LanguagePreferences = ReturnType<typeof createLanguagePreferences>;

export function createLanguagePreferences(deps: LanguagePreferencesDeps) {
  const ttlMs = deps.ttlMs ?? LAST_SEEN_RESOLUTION_MS;
  const key = cacheKey(deps);

  async function cached(userId: bigint | number): Promise<string | null> {
    const at = await key(userId);
    try {
      return await deps.redis.get(at);
    } catch (error) {
      deps.logger.warn({ err: error }, "language cache unreadable; reading PostgreSQL");
      return null;
    }
  }
  async function cache(userId: bigint | number, locale: Locale): Promise<void> {
    const at = await key(userId);
    try {
      await deps.redis.set(at, locale, "PX", ttlMs);
    } catch (error) {
      deps.logger.warn({ err: error }, "language not cached");
    }
  }

  return {
    /** The stored language, or null for a user the shop has never seen. */
    async get(userId: bigint | number): Promise<Locale | null> {
      const hit = await cached(userId);
      if (isLocale(hit)) return hit;
      const customer = await deps.customers.get(userId);
      if (!customer) return null;
      await cache(userId, customer.language);
      return customer.language;
    },
    /** /language: the customer's choice, stored (false when it could not be saved). */
    async set(userId: bigint | number, locale: Locale): Promise<boolean> {
      try {
        const result = await deps.customers.setLanguage(userId, locale);
        if (result.status !== "ok") return false;
      } catch (error) {
        deps.logger.warn({ err: error }, "language not saved");
        return false;
      }
      await cache(userId, locale);
      return true;
    },
    /**
     * A customer writing in private: the language stored for them, else `reported` (Telegram's).
     * One GET when cached; on a miss, core records the customer (first contact, or last seen moved
     * on) in one statement, which answers with the language stored.
     */
    async remember(userId: bigint | number, reported: Locale): Promise<Locale> {
      const hit = await cached(userId);
      if (isLocale(hit)) return hit;
      const result = await deps.customers.record({ userId, language: reported });
      if (result.status !== "ok") return reported;
      await cache(userId, result.customer.language);
      return result.customer.language;
    },
  };
}

/** A customer's key, under the database's epoch (read once): another database's keys differ. */
function cacheKey(deps: LanguagePreferencesDeps): (userId: bigint | number) => Promise<string> {
  const epoch = memoized(() => readCacheEpoch(deps.db));
  return async (userId) => `${deps.namespace}:lang:${await epoch()}:${deps.mask(userId)}`;
}

/** The first successful answer of `read`, kept; a failure is not kept, the next call asks again. */
function memoized<T>(read: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    kept ??= read().catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
}
