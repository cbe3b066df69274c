/** The part of a `getChatAdministrators` entry the shop reads (grammY's ChatMember has it). */
export interface ChatAdministrator {
  user: { id: number; is_bot: boolean };
}

/**
 * The admin ids the shop trusts, from Telegram's `getChatAdministrators` answer: humans only.
 * Telegram lists bots too (this bot among them once it is an admin), and no bot runs an operator
 * action. The bot's operator guard and the worker's admin-refresh job both fetch through it.
 *
 * @example
 * const fetchAdmins = async () => humanAdminIds(await api.getChatAdministrators(chatId));
 * await shop.groups.refreshAdmins(chatId, fetchAdmins, { maxAgeMs: 2 * 60_000 });
 */
export function humanAdminIds(admins: readonly ChatAdministrator[]): number[] {
  return admins.filter((admin) => !admin.user.is_bot).map((admin) => admin.user.id);
}
