// The grammY side of core's rights table (@orderbot/core/rights): what Telegram says the member is,
// and the words of a refusal. The rule itself, and the check that no way in can skip, are core's.
import {
  mayDo,
  RIGHTS,
  type Action,
  type Actor,
  type Forbidden,
  type Member,
} from "@orderbot/core/rights";
import type { ChatMember } from "grammy/types";
import type { BotContext } from "../../bot/context.ts";
import { respond } from "./guard.ts";

/** An action of the rights table that needs a right beyond being an admin. */
export type RightedAction = {
  [A in Action]: (typeof RIGHTS)[A] extends null ? never : A;
}[Action];

/** What an admin without the right is told, per action; nothing changes. */
export const REFUSALS = {
  refund: "op-refund-no-right",
  "refund-retry": "op-refund-no-right",
  "refund-mark": "op-refund-no-right",
  "finding-resolve": "op-finding-no-right",
  price: "op-price-no-right",
  kind: "op-price-no-right",
  "promo-add": "op-promo-no-right",
  "catalog-import": "op-import-no-right",
} as const satisfies Record<RightedAction, string>;

/** Core refused: the same words as the early check's (a member demoted between the two). */
export function refusalText(ctx: BotContext, refused: Forbidden): string {
  const { action } = refused;
  return ctx.t(action === "stock" || action === "product" ? "op-not-admin" : REFUSALS[action]);
}

const OWNER: Member = { role: "owner", rights: [] };

/** A chat member as core's rights table reads them: the creator is an owner. */
export function memberFrom(member: ChatMember): Member {
  if (member.status === "creator") return OWNER;
  if (member.status !== "administrator") return { role: "none", rights: [] };
  const rights = Object.entries(member).flatMap(([key, value]) =>
    key.startsWith("can_") && value === true ? [key] : [],
  );
  return { role: "admin", rights };
}

/**
 * For an action in the rights table: the actor to hand core, an owner (`OWNER_IDS`) or an admin
 * as Telegram says they are now, not as the admin cache remembers (these actions are rare, and a
 * demotion must stop them at once). Anyone else is told which right is missing: null.
 */
export async function requireRight(
  ctx: BotContext,
  action: RightedAction,
  ownerIds: readonly bigint[],
): Promise<Actor | null> {
  const from = ctx.from;
  const chat = ctx.chat;
  if (!from || !chat) return null;
  const member = ownerIds.includes(BigInt(from.id))
    ? OWNER
    : memberFrom(await ctx.api.getChatMember(chat.id, from.id));
  if (mayDo(action, member)) return { id: from.id, member };
  ctx.logger.info(
    { action, right: RIGHTS[action] },
    "operator action refused: admin without the right",
  );
  await respond(ctx, ctx.t(REFUSALS[action]));
  return null;
}

/**
 * The actor of a command every admin may run: `operatorsOnly` found them in the group's admin
 * list, which is all core's table asks of these.
 */
export function adminActor(ctx: BotContext, ownerIds: readonly bigint[]): Actor {
  if (!ctx.from) throw new Error("operator action without a sender got past operatorsOnly");
  const owner = ownerIds.includes(BigInt(ctx.from.id));
  return { id: ctx.from.id, member: owner ? OWNER : { role: "admin", rights: [] } };
}
