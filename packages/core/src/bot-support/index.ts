// What the bot needs from the domain beyond the order services: per-user language choices and
// the operator group's admin list, both cached in Redis so handlers never touch Redis themselves.
export { createLanguagePreferences, type LanguagePreferences, type LanguagePreferencesDeps } from "./language-preferences.ts";
export { createGroupAdmins, type GroupAdmins, type GroupAdminsDeps } from "./group-admins.ts";
