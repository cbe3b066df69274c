// The fake Bot API in a process of its own, for the webhook bench. Before a run it opens the
// chats of the users the senders will write as (each user is created and sends /start, as a real
// user must before a bot may write to them; those /start updates are then dropped with
// deleteWebhook's drop_pending_updates, so no bot sees them). After a target's run it reports
// the Bot API calls it answered, and every answer that was not a success.
import { startFakeTelegram } from "@orderbot/fake-telegram";
import { cpuMs, serveParent } from "./child.ts";

const kit = await startFakeTelegram({ setWebhookRateLimit: false });

export interface OpenChats {
  firstUserId: number;
  count: number;
}

export interface CallReport {
  calls: number;
  byMethod: Record<string, number>;
  /** Answers that were not a success: "sendMessage 400 Bad Request: chat not found" → count. */
  failures: Record<string, number>;
  /** The sequence number to pass as `since` next time. */
  seq: number;
}

serveParent(
  {
    async open(payload) {
      const { firstUserId, count } = payload as OpenChats;
      for (let i = 0; i < count; i++) {
        const user = kit.createUser({
          id: firstUserId + i,
          firstName: "Bench",
          languageCode: "en",
        });
        await user.send("/start");
      }
      const response = await fetch(`${kit.url}/deleteWebhook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ drop_pending_updates: true }),
      });
      if (!response.ok) throw new Error(`deleteWebhook answered ${response.status}`);
      return { opened: count };
    },
    calls(payload) {
      const since = (payload as { since: number }).since;
      const report: CallReport = { calls: 0, byMethod: {}, failures: {}, seq: since };
      for (const call of kit.calls) {
        if (call.seq <= since) continue;
        report.seq = call.seq;
        report.calls++;
        report.byMethod[call.method] = (report.byMethod[call.method] ?? 0) + 1;
        if (!call.ok) {
          const key = `${call.method} ${call.errorCode ?? "?"} ${call.description ?? ""}`.trim();
          report.failures[key] = (report.failures[key] ?? 0) + 1;
        }
      }
      return report;
    },
    cpu: () => cpuMs(),
  },
  () => kit.close(),
);
process.send!({ ready: { token: kit.token, apiRoot: kit.apiRoot, botInfo: kit.botInfo } });
