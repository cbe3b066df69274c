// Outcomes shared by several services. Each service's result is a discriminated union on `status`;
// only bugs and infrastructure failures throw.
import type { Problem } from "./problems.ts";

/** Another call holds the lock this one needs (a double tap, a concurrent operator). */
export type Busy = { status: "busy" };
/** Redis is down and this operation's policy is to refuse, or its lease was lost mid-way. */
export type Unavailable = { status: "unavailable" };
/** The input failed validation; nothing changed. One entry per problem, as data (problems.ts). */
export type Invalid = { status: "invalid"; problems: Problem[] };
/** Not there, or (for a customer's own things) another customer's: the two answer alike. */
export type NotFound = { status: "not-found" };

export const BUSY: Busy = { status: "busy" };
export const UNAVAILABLE: Unavailable = { status: "unavailable" };
export const NOT_FOUND: NotFound = { status: "not-found" };
export const invalid = (problems: Problem[]): Invalid => ({ status: "invalid", problems });
