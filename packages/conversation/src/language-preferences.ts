import { readCacheEpoch, type Database } from "@orderbot/db";
import type { Logger, Redis } from "@orderbot/platform";
import { isLocale, type Locale } from "./languages.ts";

export interface LanguagePreferencesDeps {
  db: Pick<Database, "customer" | "$queryRaw">;
  redis: Pick<Redis, "get" | "set">;
  /** Key prefix, e.g. "prod:shopbot". */
  namespace: string;
  /** User id → opaque key part (HMAC): no Telegram id appears in a Redis key. */
  mask: (userId: bigint | number) => string;
  /** How long Redis keeps a copy of a customer's language (default one day). */
  ttlMs?: number;
  logger: Logger;
}

/**
 * A customer's language, kept with the customer in PostgreSQL (`customers.language`) so that the
 * worker's notices use it too, and cached in Redis so that an update costs one GET. The cache's
 * keys carry the database's epoch (`readCacheEpoch`): another database sharing the Redis never
 * reads these copies. A Redis outage reads through to PostgreSQL; PostgreSQL failing fails the
 * update, like any other query.
 */
export type LanguagePreferences = ReturnType<typeof createLanguagePreferences>;

export function createLanguagePreferences(deps: LanguagePreferencesDeps) {
  const ttlMs = deps.ttlMs ?? 24 * 3_600_000;
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
      const row = await deps.db.customer.findUnique({
        where: { userId: BigInt(userId) },
        select: { language: true },
      });
      if (!row || !isLocale(row.language)) return null;
      await cache(userId, row.language);
      return row.language;
    },
    /** /language: the customer's choice, stored (false when it could not be saved). */
    async set(userId: bigint | number, locale: Locale): Promise<boolean> {
      try {
        await deps.db.customer.upsert({
          where: { userId: BigInt(userId) },
          create: { userId: BigInt(userId), language: locale },
          update: { language: locale },
        });
      } catch (error) {
        deps.logger.warn({ err: error }, "language not saved");
        return false;
      }
      await cache(userId, locale);
      return true;
    },
    /**
     * A customer writing in private: the language stored for them, else `reported` (Telegram's),
     * stored now as their first contact. One GET when cached; on a miss, one statement, whose
     * insert returns the language stored already, so a new customer costs no read before it. (For
     * a customer stored already, that statement is a no-op update of their row: a write where a
     * read would do, once per cached copy's lifetime, for one round trip less on every first
     * contact.)
     */
    async remember(userId: bigint | number, reported: Locale): Promise<Locale> {
      const hit = await cached(userId);
      if (isLocale(hit)) return hit;
      // A customer stored already (earlier, or meanwhile by another replica or a /language)
      // keeps theirs: the no-op update returns it.
      const [row] = await deps.db.$queryRaw<{ language: string }[]>`
        INSERT INTO customers (user_id, language, updated_at)
        VALUES (${BigInt(userId)}, ${reported}, now() AT TIME ZONE 'UTC')
        ON CONFLICT (user_id) DO UPDATE SET language = customers.language
        RETURNING language`;
      if (!row || !isLocale(row.language)) return reported;
      await cache(userId, row.language);
      return row.language;
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
