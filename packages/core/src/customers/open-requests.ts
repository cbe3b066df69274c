// The cap on a customer's open support requests: one account cannot fill the operator group's
// 20 messages a minute with questions. A request is open until an operator answers it.
import type { Tx } from "@orderbot/db";

/** Open requests a customer may have at once; the next one is refused until one is answered. */
export const MAX_OPEN_SUPPORT_REQUESTS = 3;
/** An unanswered request stops counting after this long: silent operators never mute a customer for good. */
export const OPEN_REQUEST_MS = 24 * 60 * 60_000;
/** Two-int advisory lock space for "one request per customer at a time", keyed by `hashtext(<user id>)`. */
export const SUPPORT_CAP_LOCK = 0x5a9901;

/**
 * Takes the customer's lock for the rest of the transaction, then counts their open requests: two
 * requests sent at once are counted one after the other, so the cap holds under any race.
 */
export async function lockOpenRequests(tx: Tx, userId: bigint, now: Date): Promise<number> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SUPPORT_CAP_LOCK}::int, hashtext(${userId.toString()}))`;
  return tx.supportRequest.count({
    where: {
      userId,
      answeredAt: null,
      createdAt: { gt: new Date(now.getTime() - OPEN_REQUEST_MS) },
    },
  });
}
