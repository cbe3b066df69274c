import { humanAdminIds, type ChatAdministrator, type GroupService } from "@orderbot/core";
import type { Database } from "@orderbot/db";
import { groupsDueForAdminRefresh } from "../store.ts";
import type { Job } from "./job.ts";

/** The one Bot API call this job makes. */
export type GetAdministrators = (chatId: number) => Promise<readonly ChatAdministrator[]>;

export interface AdminRefreshDeps {
  db: Database;
  /** core's `shop.groups`: the job refreshes through it, as the bot's operator guard does. */
  groups: Pick<GroupService, "refreshAdmins">;
  getAdministrators: GetAdministrators;
  intervalMs: number;
  /** Lists older than this are fetched again (ms). */
  staleMs: number;
}

/**
 * admin-refresh: re-reads the admin list of each operator group whose cached list is stale, with
 * getChatAdministrators (humans only: `humanAdminIds`), through `groups.refreshAdmins`, the path
 * the bot takes on demand. One instance fetches under the group's `group-admins` lock; while
 * another holds it, the job leaves the cached list alone (counted `busy`), except a list never
 * fetched, which it fetches anyway. The write is conditional on no fresher list being stored.
 * Between groups the job checks `signal` and stops.
 */
export function adminRefreshJob(deps: AdminRefreshDeps): Job {
  return {
    name: "admin-refresh",
    intervalMs: deps.intervalMs,
    async run({ signal, logger }) {
      const summary = { refreshed: 0, busy: 0, failed: 0 };
      const groups = await groupsDueForAdminRefresh(deps.db, { staleMs: deps.staleMs, limit: 50 });
      for (const { chatId } of groups) {
        if (signal.aborted) break;
        try {
          const fetchAdmins = async () => humanAdminIds(await deps.getAdministrators(Number(chatId)));
          // The same age as the query above: a list refreshed since then counts as fresh ("cache").
          const result = await deps.groups.refreshAdmins(chatId, fetchAdmins, { maxAgeMs: deps.staleMs });
          if (result.status !== "ok") continue; // unbound since the query
          if (result.source === "fetched") summary.refreshed++;
          else if (result.source === "stale-cache") summary.busy++;
        } catch (error) {
          // A group that removed the bot answers 400/403; the others still get refreshed.
          summary.failed++;
          logger.warn({ err: error instanceof Error ? error.message : String(error) }, "admin list refresh failed for a group");
        }
      }
      return summary;
    },
  };
}
