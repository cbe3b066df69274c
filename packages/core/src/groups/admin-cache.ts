// A group's admin list, cached in operator_groups for every instance and refreshed from Telegram
// when it is too old (GroupService.refreshAdmins says when and by whom).
import type { CoreDeps } from "../deps.ts";
import { NOT_FOUND } from "../results.ts";
import { telegramId } from "../validation.ts";
import { findGroup, saveGroupAdmins } from "./queries.ts";
import type {
  FetchAdmins,
  GroupView,
  RefreshAdminsOptions,
  RefreshAdminsResult,
} from "./service.ts";

export async function refreshAdmins(
  deps: CoreDeps,
  group: bigint | number | string | GroupView,
  fetchAdmins: FetchAdmins,
  options: RefreshAdminsOptions = {},
): Promise<RefreshAdminsResult> {
  if (typeof group === "object") return refreshCached(deps, group, fetchAdmins, options);
  const id = telegramId.safeParse(group);
  const cached = id.success ? await findGroup(deps.db, id.data) : null;
  return cached ? refreshCached(deps, cached, fetchAdmins, options) : NOT_FOUND;
}

export async function isAdmin(
  deps: CoreDeps,
  group: bigint | number | string | GroupView,
  userIdRaw: bigint | number | string,
  fetchAdmins: FetchAdmins,
  options?: RefreshAdminsOptions,
): Promise<boolean> {
  const userId = telegramId.safeParse(userIdRaw);
  if (!userId.success) return false;
  const admins = await refreshAdmins(deps, group, fetchAdmins, options);
  return admins.status === "ok" && admins.adminIds.includes(userId.data);
}

export async function forgetAdmins(
  deps: CoreDeps,
  chatIdRaw: bigint | number | string,
): Promise<void> {
  const chatId = telegramId.safeParse(chatIdRaw);
  if (!chatId.success) return;
  await deps.db.operatorGroup.updateMany({
    where: { chatId: chatId.data },
    data: { adminsRefreshedAt: null },
  });
}

/** refreshAdmins for a group already read. */
async function refreshCached(
  deps: CoreDeps,
  cached: GroupView,
  fetchAdmins: FetchAdmins,
  options: RefreshAdminsOptions,
): Promise<RefreshAdminsResult> {
  const { chatId } = cached;
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const now = deps.clock.now();
  if (cached.adminsRefreshedAt && now.getTime() - cached.adminsRefreshedAt.getTime() < maxAgeMs) {
    return { status: "ok", adminIds: cached.adminIds, source: "cache" };
  }
  const fetchAndStore = (signal?: AbortSignal) =>
    fetchAndSave(deps, chatId, now, fetchAdmins, signal);
  const outcome = await deps.locks.withLock(
    { kind: "group-admins", id: chatId },
    ({ signal }) => fetchAndStore(signal),
    { requestId: deps.requestId() },
  );
  if (outcome.status === "ok") return { status: "ok", adminIds: outcome.value, source: "fetched" };
  const refreshedAt = cached.adminsRefreshedAt;
  if (refreshedAt === null)
    return { status: "ok", adminIds: await fetchAndStore(), source: "fetched" };
  const tooOld =
    options.maxStaleMs !== undefined && now.getTime() - refreshedAt.getTime() >= options.maxStaleMs;
  if (!tooOld) return { status: "ok", adminIds: cached.adminIds, source: "stale-cache" };
  // A read from Telegram is harmless without the lock: at worst two instances ask at once.
  try {
    return { status: "ok", adminIds: await fetchAndStore(), source: "fetched" };
  } catch (error) {
    deps.logger.warn(
      { group: deps.mask(chatId), refreshedAt, reason: (error as Error).message },
      "admin list too old and Telegram did not answer; refusing to use it",
    );
    return { status: "stale", refreshedAt };
  }
}

async function fetchAndSave(
  deps: CoreDeps,
  chatId: bigint,
  now: Date,
  fetchAdmins: FetchAdmins,
  signal?: AbortSignal,
): Promise<bigint[]> {
  const adminIds = (await fetchAdmins(signal)).map((id) => BigInt(id));
  signal?.throwIfAborted();
  // The worker's conditional write: a slow refresh never overwrites a faster, later one.
  await saveGroupAdmins(deps.db, { chatId, adminIds, fetchedAt: now });
  return adminIds;
}
