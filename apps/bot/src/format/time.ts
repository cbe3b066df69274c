import type { Locale, Translate } from "./translate.ts";

/**
 * The shop's clock and time zone (SHOP_TIME_ZONE). Telegram does not tell a bot its users' time
 * zones, so absolute times are given in the shop's zone, always with its name; how long something
 * lasts ("held for 15 minutes") needs no zone and comes first.
 */
export interface ShopTime {
  /** An IANA zone name, e.g. Europe/Berlin (validated in the config). */
  zone: string;
  now: () => Date;
}

export const UTC_SHOP_TIME: ShopTime = { zone: "UTC", now: () => new Date() };

const intlLocale = (locale: Locale) => (locale === "zh" ? "zh-CN" : "en-GB");

/** "14:05 (Europe/Berlin)" */
export function formatClock(date: Date, locale: Locale, zone: string): string {
  const time = new Intl.DateTimeFormat(intlLocale(locale), {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: zone,
  }).format(date);
  return locale === "zh" ? `${time}（${zone}）` : `${time} (${zone})`;
}

/** "2 Dec 2026" in the shop's zone. */
export function formatDay(date: Date, locale: Locale, zone: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), {
    dateStyle: "medium",
    timeZone: zone,
  }).format(date);
}

/** "15 minutes", "2 hours", "less than a minute": whole units, rounded up. */
export function formatDuration(t: Translate, ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes <= 0) return t("duration-under-a-minute");
  if (minutes < 120) return t("duration-minutes", { n: minutes });
  return t("duration-hours", { n: Math.round(minutes / 60) });
}
