import { cutText } from "@orderbot/platform";

/** The longest customer name core keeps (its input schemas' limit). */
export const MAX_CUSTOMER_NAME = 128;

/** A Telegram user's full name as the shop keeps it: first and last, cut to what core takes. */
export function customerName(from: { first_name: string; last_name?: string | undefined }): string {
  return cutText([from.first_name, from.last_name].filter(Boolean).join(" "), MAX_CUSTOMER_NAME);
}
