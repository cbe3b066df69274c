import type { Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { groupsDueForAdminRefresh, saveGroupAdmins } from "../store.ts";
import type { Job } from "./job.ts";

/** The one Bot API call this job makes. */
export type GetAdministrators = (chatId: number) => Promise<{ user: { id: number } }[]>;

export interface AdminRefreshDeps {
  db: Database;
  locks: LockManager;
  getAdministrators: GetAdministrators;
  intervalMs: number;
  /** Lists older than this are fetched again (ms). */
  staleMs: number;
}

/**
 * admin-refresh: re-reads the admin list of each operator group whose cached list is stale, with
 * getChatAdministrators, under the `group-admins` lock of that group (the bot takes the same lock
 * when it refreshes on demand, so one instance fetches and the others use the cache). The write
 * is conditional on no fresher list being stored.
 */
export function adminRefreshJob(deps: AdminRefreshDeps): Job {
  return {
    name: "admin-refresh",
    intervalMs: deps.intervalMs,
    async run({ signal, logger }) {
      const summary = { refreshed: 0, busy: 0, failed: 0 };
      const groups = await groupsDueForAdminRefresh(deps.db, { staleMs: deps.staleMs, limit: 50 });
      for (const group of groups) {
        if (signal.aborted) break;
        try {
          const outcome = await deps.locks.withLock({ kind: "group-admins", id: group.chatId }, async ({ signal: lease }) => {
            const fetchedAt = new Date();
            const admins = await deps.getAdministrators(Number(group.chatId));
            if (lease.aborted || signal.aborted) return false;
            return saveGroupAdmins(deps.db, { chatId: group.chatId, adminIds: admins.map((a) => BigInt(a.user.id)), fetchedAt });
          });
          if (outcome.status === "ok" && outcome.value) summary.refreshed++;
          else if (outcome.status !== "ok") summary.busy++;
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
