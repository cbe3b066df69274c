// What the bot needs beyond the order services: per-user language choices and the operator
// group's admin list (both cached in Redis, so handlers never touch Redis), low-stock alerts
// through the outbox, and today's report on demand.
export {
  createLanguagePreferences,
  type LanguagePreferences,
  type LanguagePreferencesDeps,
} from "./language-preferences.ts";
export {
  createGroupAdmins,
  type GroupAdmins,
  type GroupAdminsDeps,
  type FetchAdmins,
} from "./group-admins.ts";
export { createLowStockAlerts, type LowStockAlerts } from "./low-stock.ts";
export { createReports, type Reports, type DailyReport } from "./reports.ts";
