import { parseMoney, type Problem as ProblemData } from "@orderbot/core";
import type { CreatePromoCodeInput } from "@orderbot/core/promotions";

/**
 * A parsed `/promo add`, ready for core (which validates it again), or what was wrong, as core's
 * problems are (field, rule, bound), for the conversation to word: fields are the command's words.
 */
export type PromoAddCommand =
  { ok: true; value: Omit<CreatePromoCodeInput, "actor"> } | { ok: false; problem: ProblemData };

const refuse = (field: string, rule: ProblemData["rule"], bound?: number | string): Problem => ({
  ok: false,
  problem: bound === undefined ? { field, rule } : { field, rule, bound },
});

/**
 * `/promo add CODE 10%|5.00[CUR] uses=50 [per=1] [min=20.00] [from=YYYY-MM-DD] [until=YYYY-MM-DD]`
 * (everything after `add`). A fixed amount and the minimum are in `currency` (the shop's payment
 * currency) unless the amount names one ("5.00USD"); dates are days in the shop's time zone,
 * `until` included. Every option at most once, nothing unknown: a typo is refused, not ignored.
 */
export function parsePromoAdd(args: string, currency: string, timeZone: string): PromoAddCommand {
  const [code, amount, ...options] = args.split(/\s+/).filter(Boolean);
  if (!code) return refuse("code", "required");
  if (!amount) return refuse("amount", "required");
  const discount = parseDiscount(amount, currency);
  if (!discount.ok) return discount;
  const seen = parseOptions(options);
  if (!seen.ok) return seen;
  const limits = parseLimits(seen.options, discount.currency ?? currency, timeZone);
  if (!limits.ok) return limits;
  const { kind, value } = discount;
  return { ok: true, value: { code, kind, value, currency: discount.currency, ...limits.value } };
}

type Problem = { ok: false; problem: ProblemData };

/** "10%" or "5.00[CUR]"; the currency is null for a percentage. */
function parseDiscount(
  amount: string,
  currency: string,
): { ok: true; kind: "PERCENT" | "FIXED"; value: number; currency: string | null } | Problem {
  const fixed = /^(\d{1,9}(?:\.\d{1,2})?)([A-Za-z]{3})?$/.exec(amount);
  const percent = /^(\d{1,3})%$/.exec(amount);
  if (percent) {
    const value = Number(percent[1]);
    if (value < 1) return refuse("amount", "min", 1);
    if (value > 100) return refuse("amount", "max", 100);
    return { ok: true, kind: "PERCENT", value, currency: null };
  }
  if (!fixed) return refuse("amount", "format", "discount");
  const codeCurrency = fixed[2]?.toUpperCase() ?? currency;
  const value = parseMoney(fixed[1]!, codeCurrency);
  if (value === null) return refuse("amount", "format", "amount");
  return { ok: true, kind: "FIXED", value, currency: codeCurrency };
}

/** `name=value` options, each known and at most once. */
function parseOptions(options: string[]): { ok: true; options: Map<string, string> } | Problem {
  const seen = new Map<string, string>();
  for (const option of options) {
    const match = /^(uses|per|min|from|until)=(\S+)$/.exec(option.toLowerCase());
    if (!match) return refuse("option", "unknown", option);
    if (seen.has(match[1]!)) return refuse(match[1]!, "duplicate", match[1]!);
    seen.set(match[1]!, match[2]!);
  }
  return { ok: true, options: seen };
}

type Limits = Omit<CreatePromoCodeInput, "actor" | "code" | "kind" | "value" | "currency">;

/** uses (required), per, min (in `currency`), and the days from and until. */
function parseLimits(
  seen: Map<string, string>,
  currency: string,
  timeZone: string,
): { ok: true; value: Limits } | Problem {
  const count = (name: string, max: number): number | Problem | undefined => {
    const text = seen.get(name);
    if (text === undefined) return undefined;
    if (!/^\d{1,7}$/.test(text)) return refuse(name, "integer");
    const n = Number(text);
    return n < 1 ? refuse(name, "min", 1) : n > max ? refuse(name, "max", max) : n;
  };
  const totalUses = count("uses", 1_000_000);
  if (totalUses === undefined) return refuse("uses", "required");
  if (typeof totalUses !== "number") return totalUses;
  const perCustomer = count("per", 100);
  if (perCustomer !== undefined && typeof perCustomer !== "number") return perCustomer;
  let minTotalMinor = 0;
  const min = seen.get("min");
  if (min !== undefined) {
    const parsed = parseMoney(min, currency);
    if (parsed === null) return refuse("min", "format", "amount");
    minTotalMinor = parsed;
  }
  const day = (name: string, next: boolean): Date | null | undefined => {
    const text = seen.get(name);
    return text === undefined ? undefined : startOfDay(text, timeZone, next);
  };
  const startsAt = day("from", false);
  const endsAt = day("until", true);
  if (startsAt === null) return refuse("from", "format", "day");
  if (endsAt === null) return refuse("until", "format", "day");
  if (startsAt && endsAt && startsAt >= endsAt) return refuse("until", "after", "from");
  return {
    ok: true,
    value: {
      totalUses,
      perCustomer: perCustomer ?? 1,
      minTotalMinor,
      startsAt: startsAt ?? null,
      endsAt: endsAt ?? null,
    },
  };
}

/**
 * The instant a day (YYYY-MM-DD) starts in `timeZone`, or the next day when `next` (so `until` is
 * included); null for a day that does not exist.
 */
export function startOfDay(text: string, timeZone: string, next = false): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, dayOfMonth] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, dayOfMonth + (next ? 1 : 0));
  const check = new Date(Date.UTC(year, month - 1, dayOfMonth));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== dayOfMonth) return null;
  // The zone's offset at that moment, applied twice to settle across a DST change.
  let instant = utc - offsetMs(new Date(utc), timeZone);
  instant = utc - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms. */
function offsetMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}
