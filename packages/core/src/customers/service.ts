// Customers in the shop: recorded by any way in through one call, read by every part that speaks
// to them (the conversation's language, broadcasts).
import { invalid } from "../results.ts";
import { parseWith, telegramId } from "../validation.ts";
import { customerLanguageSchema, type CustomerDeps, type CustomerView } from "./customer.ts";
import {
  markUnreachable,
  setBroadcastOptOut,
  setCustomerLanguage,
  type CustomerChange,
} from "./customer-settings.ts";
import { readCustomer, recordCustomer, type RecordCustomerInput } from "./record-customer.ts";

type UserId = bigint | number | string;

export function createCustomers(deps: CustomerDeps) {
  return {
    /** A customer met by any way in: recorded once, last seen moved on at most hourly. */
    record: (input: RecordCustomerInput) => recordCustomer(deps, input),
    /** As stored; null for one the shop has never met. */
    get: (userId: UserId): Promise<CustomerView | null> =>
      readCustomer(deps, telegramId.parse(userId)),
    /** /language: their choice, stored (recording them if new). */
    async setLanguage(userId: UserId, language: string) {
      const parsed = parseWith(customerLanguageSchema, language);
      if (!parsed.ok) return invalid(parsed.problems);
      const customer = await setCustomerLanguage(deps, telegramId.parse(userId), parsed.value);
      return { status: "ok" as const, customer };
    },
    optOutOfBroadcasts: (userId: UserId, optedOut = true): Promise<CustomerChange> =>
      setBroadcastOptOut(deps, telegramId.parse(userId), optedOut),
    markUnreachable: (userId: UserId): Promise<CustomerChange> =>
      markUnreachable(deps, telegramId.parse(userId)),
  };
}

export type Customers = ReturnType<typeof createCustomers>;
