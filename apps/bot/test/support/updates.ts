// Updates as Telegram delivers them, for tests that feed the pipeline or the webhook directly.
import type { Update } from "grammy/types";

/** Update `updateId`: user 5 sends `text` in their private chat (`date`: Unix seconds). */
export const privateText = (updateId: number, text: string, date = 0): Update =>
  ({
    update_id: updateId,
    message: {
      message_id: 1,
      date,
      chat: { id: 5, type: "private", first_name: "A" },
      from: { id: 5, is_bot: false, first_name: "A" },
      text,
    },
  }) as Update;
