// Money as people read it. Core hands out amounts (minor units and a currency); the words and
// signs are the conversation's, as every other text is.
import { minorUnitDigits } from "@orderbot/core";

/**
 * "25 ⭐" for Stars, "12.50 USD" otherwise. Never floating-point arithmetic on money: the minor
 * units are split with integer division.
 */
export function formatMoney(minor: number, currency: string): string {
  if (currency === "XTR") return `${minor} ⭐`;
  if (minorUnitDigits(currency) === 0) return `${minor} ${currency}`;
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")} ${currency}`;
}
