// Who may run an operator command, for every way in (the chat, a Mini App): the rule is here, and
// each command that needs a right checks it itself, so no way around it exists. The way in only
// says what it found the member to be (docs/operations.md, "Admin rights").

/** What the way in found the acting member to be. */
export interface Member {
  /**
   * `owner`: in OWNER_IDS, or the operator group's creator: every right. `admin`: one of the
   * group's administrators, holding `rights`. `none`: neither.
   */
  role: "owner" | "admin" | "none";
  /** The admin rights held, as Telegram names them (`can_promote_members`, ...). */
  rights: readonly string[];
}

/** Who acts: their Telegram id (recorded masked) and what they are in the group. */
export interface Actor {
  id: bigint | number | string;
  member: Member;
}

/**
 * The rights table: the right each action needs beyond being an admin (null: none). Moving money
 * needs "Add new admins", the group's root of trust: whoever holds it can hand out every other
 * right, so a moderator who can delete messages or ban users cannot move money.
 */
export const RIGHTS = {
  stock: null,
  product: null, // titles and sale status: no money moves
  refund: "can_promote_members", // money goes back to the buyer
  "refund-retry": "can_promote_members", // sends a refused refund to Telegram again
  "refund-mark": "can_promote_members", // records money as returned, closing what the shop owes
  "finding-resolve": "can_promote_members", // can hide a missing charge or refund
  price: "can_promote_members", // a price of 1 is worth as much as a refund
  kind: "can_promote_members", // sets a price too
  "promo-add": "can_promote_members", // a 99% code is worth as much as a refund
  "catalog-import": "can_promote_members", // an import sets prices
} as const satisfies Record<string, string | null>;

export type Action = keyof typeof RIGHTS;

/** Refused: the actor lacks what `action` needs; nothing changed. */
export type Forbidden = { status: "forbidden"; action: Action; right: string | null };

export function mayDo(action: Action, member: Member): boolean {
  if (member.role === "owner") return true;
  if (member.role !== "admin") return false;
  const right = RIGHTS[action];
  return right === null || member.rights.includes(right);
}

/** `mayDo` as a command's first step: the refusal to return, or null to go on. */
export function refusalOf(action: Action, actor: Actor): Forbidden | null {
  return mayDo(action, actor.member)
    ? null
    : { status: "forbidden", action, right: RIGHTS[action] };
}

/** An owner: every right (the demo, tests, the owner's own tools). */
export const ownerActor = (id: bigint | number | string): Actor => ({
  id,
  member: { role: "owner", rights: [] },
});
