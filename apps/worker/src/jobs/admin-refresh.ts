import { humanAdminIds, type ChatAdministrator, type GroupService } from "@orderbot/core/groups";
import type { Job } from "./job.ts";

/** The one Bot API call this job makes; `signal` is the `group-admins` lease's. */
export type GetAdministrators = (
  chatId: number,
  signal?: AbortSignal,
) => Promise<readonly ChatAdministrator[]>;

export interface AdminRefreshDeps {
  /** core's `shop.groups`: the job refreshes through it, as the bot's operator guard does. */
  groups: Pick<GroupService, "list" | "refreshAdmins">;
  getAdministrators: GetAdministrators;
  intervalMs: number;
  /** Lists older than this are fetched again (ms). */
  staleMs: number;
}

/**
 * admin-refresh: hands every operator group to `groups.refreshAdmins`, the path the bot takes on
 * demand, which alone decides what is stale (older than `staleMs`) and re-reads only those with
 * getChatAdministrators (humans only: `humanAdminIds`). One instance fetches under the group's
 * `group-admins` lock; while another holds it, the job leaves the cached list alone (counted
 * `busy`), except a list never fetched, which it fetches anyway. The write is conditional on no
 * fresher list being stored. Between groups the job checks `signal` and stops.
 */
export function adminRefreshJob(deps: AdminRefreshDeps): Job {
  return {
    name: "admin-refresh",
    intervalMs: deps.intervalMs,
    async run({ signal, logger }) {
      const summary = { refreshed: 0, busy: 0, failed: 0 };
      for (const group of await deps.groups.list()) {
        if (signal.aborted) break;
        try {
          const fetchAdmins = async (lease?: AbortSignal) =>
            humanAdminIds(await deps.getAdministrators(Number(group.chatId), lease));
          // The group as just read: no second read; a fresh list comes back as "cache", untouched.
          const result = await deps.groups.refreshAdmins(group, fetchAdmins, {
            maxAgeMs: deps.staleMs,
          });
          if (result.status !== "ok") continue;
          if (result.source === "fetched") summary.refreshed++;
          else if (result.source === "stale-cache") summary.busy++;
        } catch (error) {
          // A group that removed the bot answers 400/403; the others still get refreshed.
          summary.failed++;
          logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            "admin list refresh failed for a group",
          );
        }
      }
      return summary;
    },
  };
}
