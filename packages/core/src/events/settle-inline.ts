// An event whose word reached its recipient another way (the bot's own reply) before the relay
// told it: its notice is settled, not sent (the payer's `payment.received`, due after a grace).
import { runTransaction, type Database } from "@orderbot/db";

/**
 * Settles the events under `deliveryKey`: one still to expand is expanded to nobody, and a
 * delivery no relay has taken (PENDING, never attempted) is SENT. False when there is no such
 * event, or a relay has it already (it may then arrive a second time).
 */
export function settleEventInline(db: Database, deliveryKey: string): Promise<boolean> {
  return runTransaction(db, async (tx) => {
    const unexpanded = await tx.$executeRaw`
      UPDATE events SET expanded_at = timezone('UTC', now())
       WHERE delivery_key = ${deliveryKey} AND expanded_at IS NULL`;
    const untaken = await tx.$executeRaw`
      UPDATE deliveries d SET status = 'SENT', sent_at = timezone('UTC', now())
        FROM events e
       WHERE e.id = d.event_id AND e.delivery_key = ${deliveryKey}
         AND d.status = 'PENDING' AND d.attempts = 0`;
    return unexpanded + untaken > 0;
  });
}
