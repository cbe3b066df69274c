// What the bot needs beyond the order services: per-user language choices (cached in Redis, so
// handlers never touch Redis), low-stock alerts through the outbox, and today's report on demand.
// (The operator group's admin list is the group service's: `shop.groups.isAdmin`.)
export {
  createLanguagePreferences,
  type LanguagePreferences,
  type LanguagePreferencesDeps,
} from "./language-preferences.ts";
export { createLowStockAlerts, type LowStockAlerts } from "./low-stock.ts";
export { createReports, type Reports, type DailyReport } from "./reports.ts";
