// An event that found nobody to tell (no group bound, no OPERATOR_GROUP_ID) is expanded again once
// the recipient rule names a chat: for events someone must act on, such as a refund by hand.
import type { Database } from "@orderbot/db";

/**
 * Of the events under `dedupeKeys`, those expanded to no chat whose rule names one now go back to
 * be expanded; returns how many.
 */
export function reopenUnheard(
  db: Database,
  dedupeKeys: readonly string[],
  fallbackChat: bigint | undefined,
): Promise<number> {
  return db.$executeRaw`
    UPDATE events e SET expanded_at = NULL, expanded_to = NULL
     WHERE e.dedupe_key = ANY(${[...dedupeKeys]}::text[]) AND e.expanded_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
       AND EXISTS (SELECT 1 FROM event_recipients(e.kind, e.payload, ${fallbackChat ?? null}::bigint))`;
}
