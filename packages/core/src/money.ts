/** Currencies without a fractional unit: Telegram Stars, and the ISO ones the Bot API lists with exp 0. */
const ZERO_DECIMAL = new Set(["XTR", "JPY", "KRW", "VND", "CLP", "ISK", "UGX", "PYG"]);

/**
 * Integer minor units as people read them: "25 ⭐" for Stars, "12.50 USD" otherwise. Never
 * floating-point arithmetic on money: the minor units are split with integer division.
 */
export function formatMoney(minor: number, currency: string): string {
  if (currency === "XTR") return `${minor} ⭐`;
  if (ZERO_DECIMAL.has(currency)) return `${minor} ${currency}`;
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")} ${currency}`;
}

/** "12.5" or "12" (an operator's /price argument) → minor units; null when it is not an amount. */
export function parseMoney(text: string, currency: string): number | null {
  const decimals = ZERO_DECIMAL.has(currency) ? 0 : 2;
  const pattern = decimals === 0 ? /^(\d{1,9})$/ : /^(\d{1,9})(?:\.(\d{1,2}))?$/;
  const match = pattern.exec(text.trim());
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = decimals === 0 ? 0 : Number((match[2] ?? "").padEnd(2, "0"));
  const minor = whole * 10 ** decimals + fraction;
  return Number.isSafeInteger(minor) && minor > 0 && minor <= 2_147_483_647 ? minor : null;
}
