// @orderbot/core/events: what happened, recorded with the change (record.ts), and expanded into
// one delivery per recipient by the one recipient rule (expand.ts).
export { CUSTOMER_KINDS, eventSchema, type EventKind, type ShopEvent } from "./kinds.ts";
export { recordEvent, type EventKeys } from "./record.ts";
export { expandEvents, type ExpandOptions } from "./expand.ts";
export { operatorChats } from "./recipients.ts";
export { reopenUnheard } from "./reopen.ts";
