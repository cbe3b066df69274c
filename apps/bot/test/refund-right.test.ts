// Who holds the refund right, from Telegram's ChatMember answer: the creator, and admins with
// "Add new admins". (The test kit's admins never hold it, so the bot suites cover refusals and
// owners; the holders are checked here, through the adapter and core's table.)
import { describe, expect, it } from "vitest";
import type { ChatMember } from "grammy/types";
import { mayDo } from "@orderbot/core/rights";
import { memberFrom } from "../src/features/operator/rights.ts";

const holdsRefundRight = (member: ChatMember) => mayDo("refund", memberFrom(member));

const user = { id: 7_100_000_001, is_bot: false, first_name: "A" };
const admin = (canPromote: boolean): ChatMember => ({
  status: "administrator",
  user,
  can_be_edited: false,
  is_anonymous: false,
  can_manage_chat: true,
  can_delete_messages: true,
  can_manage_video_chats: true,
  can_restrict_members: true,
  can_promote_members: canPromote,
  can_change_info: true,
  can_invite_users: true,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
  can_send_welcome_messages: false,
});

describe("the refund right", () => {
  it("is the creator's and an admin's with can_promote_members, no one else's", () => {
    expect(holdsRefundRight({ status: "creator", user, is_anonymous: false })).toBe(true);
    expect(holdsRefundRight(admin(true))).toBe(true);
    expect(holdsRefundRight(admin(false))).toBe(false);
    expect(holdsRefundRight({ status: "member", user })).toBe(false);
    expect(holdsRefundRight({ status: "left", user })).toBe(false);
  });
});
