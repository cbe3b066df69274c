// The events a test's updates recorded, by key, and the notice each is told by when the worker
// sends it (rendered by @orderbot/conversation; the relay does not run in the bot's tests).
import { noticeOfEvent, type EventNotice } from "@orderbot/conversation";
import type { Database } from "@orderbot/db";

export interface RecordedEvent extends EventNotice {
  kind: string;
  payload: Record<string, unknown>;
  /** The chats the recipient rule names now (none configured for operators). */
  recipients: bigint[];
}

/** Events whose key starts with `prefix`, oldest first. */
export async function eventsOf(db: Database, prefix: string): Promise<RecordedEvent[]> {
  const rows = await db.$queryRaw<
    { kind: string; payload: Record<string, unknown>; recipients: bigint[] }[]
  >`
    SELECT kind, payload,
           ARRAY(SELECT chat_id FROM event_recipients(kind, payload, NULL) ORDER BY chat_id) AS recipients
      FROM events WHERE starts_with(dedupe_key, ${prefix}) ORDER BY id`;
  return rows.map((r) => ({
    kind: r.kind,
    payload: r.payload,
    recipients: r.recipients.map(BigInt),
    ...noticeOfEvent(r.payload),
  }));
}
