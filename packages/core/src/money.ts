/** An amount of money: integer minor units of a currency, never a float and never text. */
export interface Money {
  minor: number;
  currency: string;
}

/** Currencies without a fractional unit: Telegram Stars, and the ISO ones the Bot API lists with exp 0. */
const ZERO_DECIMAL = new Set(["XTR", "JPY", "KRW", "VND", "CLP", "ISK", "UGX", "PYG"]);

/** How many decimal places the currency's minor unit has: 0 for Stars and yen, else 2. */
export function minorUnitDigits(currency: string): 0 | 2 {
  return ZERO_DECIMAL.has(currency) ? 0 : 2;
}

/** "12.5" or "12" (a catalog file's or an operator's price) → minor units; null when it is not an amount. */
export function parseMoney(text: string, currency: string): number | null {
  const decimals = minorUnitDigits(currency);
  const pattern = decimals === 0 ? /^(\d{1,9})$/ : /^(\d{1,9})(?:\.(\d{1,2}))?$/;
  const match = pattern.exec(text.trim());
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = decimals === 0 ? 0 : Number((match[2] ?? "").padEnd(2, "0"));
  const minor = whole * 10 ** decimals + fraction;
  return Number.isSafeInteger(minor) && minor > 0 && minor <= 2_147_483_647 ? minor : null;
}
