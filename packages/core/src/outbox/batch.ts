// One relay batch from both tables (sources.ts), shared between them.
import type { Sql } from "../database/sql.ts";
import { claimDue, type ClaimedMessage, type ClaimOptions } from "./claims.ts";

/**
 * Claims due PENDING messages and deliveries, lane 0 first, then oldest first, one statement per
 * table; a chat's messages come back in that order too. Each table gets at least half the batch
 * while it has that many due, so a broadcast's deliveries never hold back a refund call, nor the
 * reverse. `FOR UPDATE SKIP LOCKED` lets several relays claim at once without waiting on each
 * other or taking the same row.
 */
export async function claimDueOutbox(sql: Sql, options: ClaimOptions): Promise<ClaimedMessage[]> {
  const half = Math.ceil(options.limit / 2);
  const outbox = await claimDue(sql, "outbox", { ...options, limit: half });
  const deliveries = await claimDue(sql, "delivery", {
    ...options,
    limit: options.limit - outbox.length,
  });
  const room = options.limit - outbox.length - deliveries.length;
  const more = outbox.length === half && room > 0;
  const rest = more ? await claimDue(sql, "outbox", { ...options, limit: room }) : [];
  return [...outbox, ...rest, ...deliveries].sort((a, b) => a.lane - b.lane);
}
