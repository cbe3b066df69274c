// @orderbot/core/groups: operator groups: binding, settings, admins.
export {
  createGroupService,
  type GroupService,
  type GroupView,
  type UpdateSettingsResult,
  type RefreshAdminsResult,
  type FetchAdmins,
} from "./service.ts";
export { humanAdminIds, type ChatAdministrator } from "./admins.ts";
export { migrateGroup, type GroupMigration } from "./migration.ts";
export { saveGroupAdmins, listOperatorGroups, type OperatorGroupRef } from "./queries.ts";
export {
  DEFAULT_LOW_STOCK_THRESHOLD,
  groupSettingsSchema,
  type GroupSettings,
  type GroupSettingsPatch,
} from "./settings.ts";
