// The two tables the relay claims from: outbox messages and events' deliveries, alike in the
// columns a claim and its settlement use.
import { Prisma } from "@orderbot/db";

/** A delivery's `method` is `event`, its payload the event's with what the recipient rule added. */
export type Source = "outbox" | "delivery";

export const TABLES: Record<Source, Prisma.Sql> = {
  outbox: Prisma.raw("outbox_messages"),
  delivery: Prisma.raw("deliveries"),
};

export const RETURNED: Record<Source, Prisma.Sql> = {
  outbox: Prisma.raw("method, payload"),
  delivery: Prisma.raw(
    "'event' AS method, (SELECT e.payload || d.params FROM events e WHERE e.id = d.event_id) AS payload",
  ),
};
