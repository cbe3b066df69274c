import type { ChatMember, ChatMemberAdministrator } from "grammy/types";
import type { BotContext } from "../../bot/context.ts";
import { respond } from "./guard.ts";

/** A Telegram admin right, as ChatMemberAdministrator names it. */
export type AdminRight = {
  [K in keyof ChatMemberAdministrator]-?: NonNullable<ChatMemberAdministrator[K]> extends boolean
    ? K
    : never;
}[keyof ChatMemberAdministrator];

interface RightRule {
  /** The right an admin must hold (owners in OWNER_IDS and the group's creator always may). */
  right: AdminRight;
  /** Why this action needs it (docs/operations.md, "Admin rights", shows the same table). */
  why: string;
  /** The refusal the admin is shown; nothing changes. */
  refusal: string;
}

/**
 * The rights table: every operator action that needs more than being one of the group's admins.
 * Each needs "Add new admins", the group's root of trust: whoever holds it can hand out every
 * other right, so a moderator who can delete messages or ban users cannot move money.
 */
export const ADMIN_RIGHTS = {
  refund: {
    right: "can_promote_members",
    why: "money goes back to the buyer",
    refusal: "op-refund-no-right",
  },
  "refund-retry": {
    right: "can_promote_members",
    why: "sends a refused refund to Telegram again",
    refusal: "op-refund-no-right",
  },
  "refund-mark": {
    right: "can_promote_members",
    why: "records money as returned, which closes what the shop owes",
    refusal: "op-refund-no-right",
  },
  "finding-resolve": {
    right: "can_promote_members",
    why: "resolving a ledger finding can hide a missing charge or refund",
    refusal: "op-finding-no-right",
  },
  price: {
    right: "can_promote_members",
    why: "a price of 1 is worth as much as a refund",
    refusal: "op-price-no-right",
  },
  "promo-add": {
    right: "can_promote_members",
    why: "a 99% code is worth as much as a refund",
    refusal: "op-promo-no-right",
  },
  "catalog-import": {
    right: "can_promote_members",
    why: "an import sets prices",
    refusal: "op-import-no-right",
  },
} as const satisfies Record<string, RightRule>;

export type RightedAction = keyof typeof ADMIN_RIGHTS;

export function holdsRight(member: ChatMember, right: AdminRight): boolean {
  if (member.status === "creator") return true;
  return member.status === "administrator" && member[right] === true;
}

/** Whether a member may refund: the creator, or an admin with "Add new admins". */
export const holdsRefundRight = (member: ChatMember): boolean =>
  holdsRight(member, ADMIN_RIGHTS.refund.right);

/**
 * For an action in the rights table: an owner (`OWNER_IDS`), or an admin holding its right, asked
 * of Telegram now rather than read from the admin cache (these actions are rare, and a demotion
 * must stop them at once). Anyone else is told which right is missing and nothing changes;
 * returns whether the action may go on.
 */
export async function requireRight(
  ctx: BotContext,
  action: RightedAction,
  ownerIds: readonly bigint[],
): Promise<boolean> {
  const from = ctx.from;
  const chat = ctx.chat;
  if (!from || !chat) return false;
  if (ownerIds.includes(BigInt(from.id))) return true;
  const rule = ADMIN_RIGHTS[action];
  if (holdsRight(await ctx.api.getChatMember(chat.id, from.id), rule.right)) return true;
  ctx.logger.info(
    { action, right: rule.right },
    "operator action refused: admin without the right",
  );
  await respond(ctx, ctx.t(rule.refusal));
  return false;
}
