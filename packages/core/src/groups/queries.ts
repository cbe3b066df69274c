import { type Prisma, utcTimestamp } from "@orderbot/db";
import type { Sql } from "../database/sql.ts";
import type { GroupView } from "./service.ts";
import { readSettings } from "./settings.ts";

type OperatorGroup = Prisma.OperatorGroupModel;

export interface OperatorGroupRef {
  chatId: bigint;
  title: string;
}

/**
 * Stores a group's admin list as fetched at `fetchedAt`. Conditional on no fresher list being
 * stored: a slow refresh that finishes after a newer one never overwrites it. Settings and their
 * version are untouched (the admin list is a cache, not an operator's edit).
 */
export async function saveGroupAdmins(
  sql: Sql,
  options: { chatId: bigint; adminIds: readonly bigint[]; fetchedAt: Date },
): Promise<boolean> {
  const count = await sql.$executeRaw`
    UPDATE operator_groups
       SET admin_ids = ${options.adminIds.map(String)}::bigint[],
           admins_refreshed_at = ${utcTimestamp(options.fetchedAt)},
           updated_at = timezone('UTC', now())
     WHERE chat_id = ${options.chatId}
       AND (admins_refreshed_at IS NULL OR admins_refreshed_at < ${utcTimestamp(options.fetchedAt)})`;
  return count === 1;
}

export async function listOperatorGroups(sql: Sql): Promise<OperatorGroupRef[]> {
  const rows = await sql.operatorGroup.findMany({
    select: { chatId: true, title: true },
    orderBy: { chatId: "asc" },
  });
  return rows.map((r) => ({ chatId: r.chatId, title: r.title }));
}

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

/** The group bound at this id, if any. */
export async function findGroup(sql: Sql, chatId: bigint): Promise<GroupView | null> {
  const row = await sql.operatorGroup.findUnique({ where: { chatId } });
  return row ? groupView(row) : null;
}
