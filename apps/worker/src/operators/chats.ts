import type { Database } from "@orderbot/db";
import { listOperatorGroups } from "@orderbot/core/groups";

/** Where operator alerts and reports go: every bound operator group, plus OPERATOR_GROUP_ID. */
export type OperatorChats = () => Promise<bigint[]>;

export function operatorChats(db: Database, configured: bigint | null): OperatorChats {
  return async () => {
    const chats = new Set((await listOperatorGroups(db)).map((g) => g.chatId));
    if (configured !== null) chats.add(configured);
    return [...chats];
  };
}
