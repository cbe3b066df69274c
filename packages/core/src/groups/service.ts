import type { Prisma } from "@orderbot/db";

type OperatorGroup = Prisma.OperatorGroupModel;
import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { invalid, NOT_FOUND, type Invalid, type NotFound } from "../results.ts";
import { parseWith, telegramId } from "../support/validation.ts";
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
  { status: "ok"; adminIds: bigint[]; source: "fetched" | "cache" | "stale-cache" } | NotFound;

export interface GroupService {
  /** Binds a group to the shop (idempotent: binding again updates the title). */
  bind(input: {
    chatId: bigint | number | string;
    title: string;
    boundBy: bigint | number | string;
  }): Promise<{ status: "ok"; group: GroupView; created: boolean } | Invalid>;
  get(chatId: bigint | number | string): Promise<GroupView | null>;
  list(): Promise<GroupView[]>;
  /** Optimistic concurrency: applied only if the stored version is still `expectedVersion`. */
  updateSettings(input: {
    chatId: bigint | number | string;
    patch: GroupSettingsPatch;
    expectedVersion: number;
    actor: bigint | number | string;
  }): Promise<UpdateSettingsResult>;
  /**
   * The group's admins, refreshed through `fetchAdmins` (getChatAdministrators) when the cache is
   * older than `maxAgeMs`. One instance refreshes under the `group-admins` lock (no wait); the
   * others, and everyone while Redis is down, use the cached list.
   */
  refreshAdmins(
    chatId: bigint | number | string,
    fetchAdmins: (signal: AbortSignal) => Promise<bigint[]>,
    options?: { maxAgeMs?: number },
  ): Promise<RefreshAdminsResult>;
  /** From the cached admin list only. */
  isAdmin(chatId: bigint | number | string, userId: bigint | number | string): Promise<boolean>;
}

const bindSchema = z.object({
  chatId: telegramId,
  title: z.string().trim().min(1).max(255),
  boundBy: telegramId,
});
const updateSchema = z.object({
  chatId: telegramId,
  patch: groupSettingsPatchSchema,
  expectedVersion: z.number().int().min(0),
  actor: telegramId,
});

export function groupView(row: OperatorGroup): GroupView {
  return {
    chatId: row.chatId,
    title: row.title,
    settings: readSettings(row.settings),
    version: row.version,
    adminIds: row.adminIds,
    adminsRefreshedAt: row.adminsRefreshedAt,
    boundBy: row.boundBy,
  };
}

export function createGroupService(deps: CoreDeps): GroupService {
  const { db } = deps;
  const find = async (chatId: bigint) => {
    const row = await db.operatorGroup.findUnique({ where: { chatId } });
    return row ? groupView(row) : null;
  };
  const toId = (value: bigint | number | string) => telegramId.safeParse(value);

  return {
    async bind(raw) {
      const parsed = parseWith(bindSchema, raw);
      if (!parsed.ok) return invalid(parsed.problems);
      const { chatId, title, boundBy } = parsed.value;
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
    },

    async get(chatId) {
      const id = toId(chatId);
      return id.success ? find(id.data) : null;
    },

    async list() {
      return (await db.operatorGroup.findMany({ orderBy: { createdAt: "asc" } })).map(groupView);
    },

    async updateSettings(raw) {
      const parsed = parseWith(updateSchema, raw);
      if (!parsed.ok) return invalid(parsed.problems);
      const { chatId, patch, expectedVersion, actor } = parsed.value;
      const current = await find(chatId);
      if (!current) return NOT_FOUND;
      const settings = { ...current.settings, ...patch };
      const { count } = await db.operatorGroup.updateMany({
        where: { chatId, version: expectedVersion },
        data: { settings, version: { increment: 1 } },
      });
      const group = (await find(chatId))!;
      const result: UpdateSettingsResult =
        count === 1 ? { status: "ok", group } : { status: "conflict", group };
      deps.metrics.operations.inc({ op: "update_settings", outcome: result.status });
      if (count === 1)
        deps.logger.info(
          { group: deps.mask(chatId), by: deps.mask(actor), version: group.version },
          "group settings updated",
        );
      return result;
    },

    async refreshAdmins(chatIdRaw, fetchAdmins, options = {}) {
      const id = toId(chatIdRaw);
      if (!id.success) return NOT_FOUND;
      const chatId = id.data;
      const cached = await find(chatId);
      if (!cached) return NOT_FOUND;
      const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
      const now = deps.clock.now();
      if (cached.adminsRefreshedAt && now.getTime() - cached.adminsRefreshedAt.getTime() < maxAgeMs) {
        return { status: "ok", adminIds: cached.adminIds, source: "cache" };
      }
      const outcome = await deps.locks.withLock({ kind: "group-admins", id: chatId }, async ({ signal }) => {
        const adminIds = await fetchAdmins(signal);
        signal.throwIfAborted();
        // Only a newer list replaces the cache (a slow refresh never overwrites a faster, later one).
        await db.operatorGroup.updateMany({
          where: { chatId, OR: [{ adminsRefreshedAt: null }, { adminsRefreshedAt: { lt: now } }] },
          data: { adminIds, adminsRefreshedAt: now },
        });
        return adminIds;
      });
      if (outcome.status === "ok") return { status: "ok", adminIds: outcome.value, source: "fetched" };
      return { status: "ok", adminIds: cached.adminIds, source: "stale-cache" };
    },

    async isAdmin(chatIdRaw, userIdRaw) {
      const chatId = toId(chatIdRaw);
      const userId = toId(userIdRaw);
      if (!chatId.success || !userId.success) return false;
      const group = await find(chatId.data);
      return group?.adminIds.includes(userId.data) ?? false;
    },
  };
}
