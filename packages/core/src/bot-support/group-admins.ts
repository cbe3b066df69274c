import type { LockManager } from "@orderbot/lock";
import type { Logger, Redis } from "@orderbot/platform";

export interface GroupAdminsDeps {
  redis: Pick<Redis, "get" | "set" | "del">;
  locks: LockManager;
  /** Key prefix, e.g. "prod:shopbot". */
  namespace: string;
  /** Chat or user id → opaque text (HMAC): the cache holds no Telegram ids. */
  mask: (id: bigint | number) => string;
  /** How long a fetched list is trusted before the next check refreshes it (default 2 min). */
  freshMs?: number;
  logger: Logger;
  now?: () => number;
}

/** The group's administrators as Telegram reports them (the bot calls getChatAdministrators). */
export type FetchAdmins = () => Promise<readonly (bigint | number)[]>;

export interface GroupAdmins {
  /**
   * Whether the user administers the group, from a list at most `freshMs` old when it can be
   * had; `fetchAdmins` is called only when the cached list must be refreshed.
   */
  isAdmin(chatId: bigint | number, userId: bigint | number, fetchAdmins: FetchAdmins): Promise<boolean>;
  /** Drops the cached list (after a membership change), so the next check fetches it. */
  forget(chatId: bigint | number): Promise<void>;
}

interface CachedList {
  /** Masked user ids. */
  admins: string[];
  fetchedAt: number;
}

/**
 * Operator-group admins, cached in Redis for every replica. A stale list is refreshed by one
 * instance at a time, under the `group-admins` lock; the others keep using the cached list
 * meanwhile. With no usable cache (first check, Redis down) the list is fetched directly: a read
 * from Telegram is harmless, and an admin check must not fail because a cache is missing.
 */
export function createGroupAdmins(deps: GroupAdminsDeps): GroupAdmins {
  const freshMs = deps.freshMs ?? 120_000;
  const now = deps.now ?? Date.now;
  const keyOf = (chatId: bigint) => `${deps.namespace}:group-admins:${deps.mask(chatId)}`;

  async function readCache(chatId: bigint): Promise<CachedList | null> {
    try {
      const raw = await deps.redis.get(keyOf(chatId));
      return raw ? (JSON.parse(raw) as CachedList) : null;
    } catch (error) {
      deps.logger.warn({ err: error }, "group admin cache unreadable");
      return null;
    }
  }

  async function fetchList(fetchAdmins: FetchAdmins): Promise<CachedList> {
    const ids = await fetchAdmins();
    return { admins: ids.map((id) => deps.mask(id)), fetchedAt: now() };
  }

  async function refresh(
    chatId: bigint,
    stale: CachedList | null,
    fetchAdmins: FetchAdmins,
  ): Promise<CachedList> {
    const outcome = await deps.locks.withLock({ kind: "group-admins", id: chatId }, async () => {
      // Another instance may have refreshed it while this one waited for the lock.
      const current = await readCache(chatId);
      if (current && now() - current.fetchedAt < freshMs) return current;
      const list = await fetchList(fetchAdmins);
      // Kept well past freshness: a stale list still serves while a refresh is under way.
      await deps.redis
        .set(keyOf(chatId), JSON.stringify(list), "PX", freshMs * 10)
        .catch((error: unknown) => {
          deps.logger.warn({ err: error }, "group admin cache not written");
        });
      return list;
    });
    if (outcome.status === "ok") return outcome.value;
    // Busy: someone else is refreshing; use what is cached. Redis down: nothing is cached either.
    return stale ?? fetchList(fetchAdmins);
  }

  return {
    async isAdmin(chatId, userId, fetchAdmins) {
      const chat = BigInt(chatId);
      const cached = await readCache(chat);
      const list =
        cached && now() - cached.fetchedAt < freshMs ? cached : await refresh(chat, cached, fetchAdmins);
      return list.admins.includes(deps.mask(userId));
    },
    async forget(chatId) {
      await deps.redis.del(keyOf(BigInt(chatId))).catch(() => undefined);
    },
  };
}
