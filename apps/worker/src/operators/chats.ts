import type { Database } from "@orderbot/db";
import { operatorChats as ruledChats } from "@orderbot/core/events";

/** Where the worker's own alerts and reports go: the recipient rule's operator chats. */
export type OperatorChats = () => Promise<bigint[]>;

export function operatorChats(db: Database, configured: bigint | null): OperatorChats {
  return () => ruledChats(db, configured ?? undefined);
}
