/** Currencies without a fractional unit: Telegram Stars, and the ISO ones the Bot API lists with exp 0. */
const ZERO_DECIMAL = new Set(["XTR", "JPY", "KRW", "VND", "CLP", "ISK", "UGX", "PYG"]);

/** Integer minor units as people read them: "25 ⭐" for Stars, "12.50 USD" otherwise. */
export function formatMoney(minor: number, currency: string): string {
  if (currency === "XTR") return `${minor} ⭐`;
  if (ZERO_DECIMAL.has(currency)) return `${minor} ${currency}`;
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")} ${currency}`;
}
