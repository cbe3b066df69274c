import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { botRemoved, migrate } from "./chat-changes.ts";
import { forgetAdmins, isAdmin, refreshAdmins } from "./admin-cache.ts";
import { findGroup, groupView } from "./queries.ts";
import {
  groupSettingsPatchSchema,
  readSettings,
  type GroupSettings,
  type GroupSettingsPatch,
} from "./settings.ts";

export interface GroupView {
  chatId: bigint;
  title: string;
  settings: GroupSettings;
  /** Settings version: pass it back to updateSettings. */
  version: number;
  adminIds: bigint[];
  adminsRefreshedAt: Date | null;
  boundBy: bigint;
}

export type UpdateSettingsResult =
  | { status: "ok"; group: GroupView }
  /** Someone saved first: `group` is what is stored now. */
  | { status: "conflict"; group: GroupView }
  | NotFound
  | Invalid;

export type RefreshAdminsResult =
  /** `source`: fetched now, the cache was fresh, or another instance is refreshing / Redis is down. */
  | { status: "ok"; adminIds: bigint[]; source: "fetched" | "cache" | "stale-cache" }
  /** Older than `maxStaleMs` and Telegram could not be asked either: use no list until it is fresh. */
  | { status: "stale"; refreshedAt: Date }
  | NotFound;

export interface RefreshAdminsOptions {
  /** Older than this, the list is refreshed (default 10 min). */
  maxAgeMs?: number;
  /**
   * The oldest list ever used. Past it, a caller that cannot take the refresh lock (another
   * instance holds it, or Redis is down) asks Telegram itself, and when that fails too gets
   * `stale` instead of the old list. Without it, a list of any age is used meanwhile.
   */
  maxStaleMs?: number;
}

/** Telegram's list of a group's administrators (getChatAdministrators), as user ids: see `humanAdminIds`. */
export type FetchAdmins = (signal?: AbortSignal) => Promise<readonly (bigint | number)[]>;

export type GroupService = ReturnType<typeof createGroupService>;

type ChatId = bigint | number | string;

const bindSchema = z.object({
  chatId: telegramId,
  title: z.string().trim().min(1).max(255),
  boundBy: telegramId,
});
const unbindSchema = z.object({ chatId: telegramId, actor: telegramId });
const updateSchema = z.object({
  chatId: telegramId,
  patch: groupSettingsPatchSchema,
  expectedVersion: z.number().int().min(0),
  actor: telegramId,
});

export function createGroupService(deps: CoreDeps) {
  return {
    /** Binds a group to the shop (idempotent: binding again updates the title). */
    bind: (input: { chatId: ChatId; title: string; boundBy: ChatId }) => bind(deps, input),
    get: (chatId: ChatId) => getGroup(deps, chatId),
    /**
     * Forgets the binding, its settings and admin list (the row is deleted; /bind starts afresh).
     * Alerts already queued for the group stay queued and are delivered as addressed: they were
     * due while it was bound, and the bot is still a member.
     */
    unbind: (input: { chatId: ChatId; actor: ChatId }) => unbind(deps, input),
    list: () => listGroups(deps),
    /** Optimistic concurrency: applied only if the stored version is still `expectedVersion`. */
    updateSettings: (input: {
      chatId: ChatId;
      patch: GroupSettingsPatch;
      expectedVersion: number;
      actor: ChatId;
    }) => updateSettings(deps, input),
    /**
     * The group's admins, cached in `operator_groups` for every instance (the worker refreshes them
     * in the background), refreshed through `fetchAdmins` when older than `maxAgeMs` (default 10 min).
     * One instance refreshes under the `group-admins` lock (no wait); the others, and everyone while
     * Redis is down, use the cached list — unless there is none yet: a list never fetched is fetched
     * directly (a read from Telegram is harmless; an admin check must not fail for want of a cache).
     * Pass the group if already read (`get`, `list`): one read less.
     */
    refreshAdmins: (
      group: ChatId | GroupView,
      fetchAdmins: FetchAdmins,
      options?: RefreshAdminsOptions,
    ) => refreshAdmins(deps, group, fetchAdmins, options),
    /**
     * Whether the user administers the group, by `refreshAdmins`' list (the group as there: id or
     * view); false when that list is `stale`.
     */
    isAdmin: (
      group: ChatId | GroupView,
      userId: ChatId,
      fetchAdmins: FetchAdmins,
      options?: RefreshAdminsOptions,
    ) => isAdmin(deps, group, userId, fetchAdmins, options),
    /** Marks the cached list stale (someone was promoted, demoted, left or joined): the next check refreshes it. */
    forgetAdmins: (chatId: ChatId) => forgetAdmins(deps, chatId),
    /**
     * Follows a group's upgrade to a supergroup (`migrate_to_chat_id`): the binding, its settings
     * and the outbox messages addressed to the old id move to the new one, in one transaction.
     * Idempotent (see `migrateGroup`).
     */
    migrate: (input: { fromChatId: ChatId; toChatId: ChatId }) => migrate(deps, input),
    /**
     * The bot was removed from a group (left or kicked). For a bound group: its pending outbox
     * messages become dead letters (see `deadLetterGroupOutbox`) and the binding stays, so that
     * re-adding the bot and retrying restores it. `not-found` for a group that was not bound.
     */
    botRemoved: (chatId: ChatId) => botRemoved(deps, chatId),
  };
}

async function bind(
  deps: CoreDeps,
  raw: { chatId: ChatId; title: string; boundBy: ChatId },
): Promise<{ status: "ok"; group: GroupView; created: boolean } | Invalid> {
  const parsed = parseWith(bindSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const { chatId, title, boundBy } = parsed.value;
  const { db } = deps;
  const { count } = await db.operatorGroup.createMany({
    data: [{ chatId, title, boundBy, settings: readSettings({}), adminIds: [] }],
    skipDuplicates: true,
  });
  const row =
    count === 1
      ? await db.operatorGroup.findUniqueOrThrow({ where: { chatId } })
      : await db.operatorGroup.update({ where: { chatId }, data: { title } });
  deps.logger.info(
    { group: deps.mask(chatId), by: deps.mask(boundBy), created: count === 1 },
    "operator group bound",
  );
  return { status: "ok", group: groupView(row), created: count === 1 };
}

async function unbind(
  deps: CoreDeps,
  raw: { chatId: ChatId; actor: ChatId },
): Promise<{ status: "ok" } | NotFound | Invalid> {
  const parsed = parseWith(unbindSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const { chatId, actor } = parsed.value;
  const { count } = await deps.db.operatorGroup.deleteMany({ where: { chatId } });
  if (count === 0) return NOT_FOUND;
  deps.logger.info({ group: deps.mask(chatId), by: deps.mask(actor) }, "operator group unbound");
  return { status: "ok" };
}

async function getGroup(deps: CoreDeps, chatId: ChatId): Promise<GroupView | null> {
  const id = telegramId.safeParse(chatId);
  return id.success ? findGroup(deps.db, id.data) : null;
}

async function listGroups(deps: CoreDeps): Promise<GroupView[]> {
  return (await deps.db.operatorGroup.findMany({ orderBy: { createdAt: "asc" } })).map(groupView);
}

async function updateSettings(
  deps: CoreDeps,
  raw: z.input<typeof updateSchema>,
): Promise<UpdateSettingsResult> {
  const parsed = parseWith(updateSchema, raw);
  if (!parsed.ok) return invalid(parsed.problems);
  const { chatId, patch, expectedVersion, actor } = parsed.value;
  const current = await findGroup(deps.db, chatId);
  if (!current) return NOT_FOUND;
  const settings = { ...current.settings, ...patch };
  const { count } = await deps.db.operatorGroup.updateMany({
    where: { chatId, version: expectedVersion },
    data: { settings, version: { increment: 1 } },
  });
  const group = (await findGroup(deps.db, chatId))!;
  const result: UpdateSettingsResult =
    count === 1 ? { status: "ok", group } : { status: "conflict", group };
  deps.metrics.operations.inc({ op: "update_settings", outcome: result.status });
  if (count === 1)
    deps.logger.info(
      { group: deps.mask(chatId), by: deps.mask(actor), version: group.version },
      "group settings updated",
    );
  return result;
}
