// Groups: admins and members as getChatAdministrators/getChatMember report them, joining and
// leaving, commands addressed to the bot, and privacy mode.
import { Bot } from "grammy";
import { describe, expect, it } from "vitest";
import {
  FakeTelegramError,
  type FakeTelegram,
  type SimulatedGroup,
  type SimulatedUser,
  TelegramErrors,
} from "../src/index.ts";
import { rawCall } from "./support/raw.ts";
import { useFakeTelegram } from "./support/ann.ts";

let tg: FakeTelegram;
let owner: SimulatedUser;
let admin: SimulatedUser;
let member: SimulatedUser;
let outsider: SimulatedUser;
let shop: SimulatedGroup;

useFakeTelegram({}, (opened) => {
  tg = opened;
  owner = tg.createUser({ firstName: "Olga" });
  admin = tg.createUser({ firstName: "Adam" });
  member = tg.createUser({ firstName: "Mia" });
  outsider = tg.createUser({ firstName: "Otto" });
  shop = tg.createGroup({
    title: "Shop operators",
    creator: owner,
    admins: [admin],
    members: [member],
  });
});

describe("members and admins", () => {
  it("lists the creator and administrators, the bot included", async () => {
    const response = await rawCall(tg, "getChatAdministrators", { chat_id: shop.chatId });
    const admins = response.body.result as { status: string; user: { id: number } }[];
    expect(admins.map((m) => [m.user.id, m.status])).toEqual([
      [owner.id, "creator"],
      [admin.id, "administrator"],
      [tg.botInfo.id, "administrator"],
    ]);
  });

  it("reports each user's status", async () => {
    const status = async (userId: number): Promise<string | undefined> =>
      (
        (await rawCall(tg, "getChatMember", { chat_id: shop.chatId, user_id: userId })).body
          .result as {
          status: string;
        }
      )?.status;
    expect(await status(owner.id)).toBe("creator");
    expect(await status(admin.id)).toBe("administrator");
    expect(await status(member.id)).toBe("member");
    expect(await status(outsider.id)).toBe("left");
    expect(
      (await rawCall(tg, "getChatMember", { chat_id: shop.chatId, user_id: 5 })).body.description,
    ).toBe(TelegramErrors.USER_NOT_FOUND);
    expect(
      (await rawCall(tg, "getChatAdministrators", { chat_id: owner.chatId })).body.description,
    ).toBe(TelegramErrors.NO_ADMINS_IN_PRIVATE_CHAT);
  });

  it("follows joins, leaves and promotions", async () => {
    const joined = await outsider.joinGroup(shop);
    expect(joined.update.message?.new_chat_members?.[0]?.id).toBe(outsider.id);
    expect(shop.status(outsider)).toBe("member");
    const left = await member.leaveGroup(shop);
    expect(left.update.message?.left_chat_member?.id).toBe(member.id);
    expect(shop.status(member)).toBe("left");
    const promoted = shop.promote(outsider);
    expect((await promoted.handled()).status).toBe("filtered");
    await rawCall(tg, "getUpdates", { allowed_updates: ["message", "chat_member"] });
    const demoted = shop.demote(outsider);
    expect(demoted.update.chat_member?.new_chat_member.status).toBe("member");
    expect(demoted.updateId).toBeGreaterThan(0);
    await expect(member.send("hi", { in: shop })).rejects.toBeInstanceOf(FakeTelegramError);
  });
});

describe("messages in groups", () => {
  it("marks /command@bot as a bot command and a grammY command handler answers it", async () => {
    const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    bot.command("stock", async (ctx) => {
      const admins = await ctx.getChatAdministrators();
      const isAdmin = admins.some((a) => a.user.id === ctx.from?.id);
      await ctx.reply(isAdmin ? `stock ${ctx.match}` : "Only operators can do that.");
    });
    const started = new Promise<void>(
      (resolve) => void bot.start({ onStart: () => resolve(), timeout: 5 }),
    );
    await started;
    try {
      const sent = await admin.send("/stock@orderbot_test_bot SKU-1 +5", { in: shop });
      expect(sent.message.entities).toEqual([{ type: "bot_command", offset: 0, length: 24 }]);
      expect((await shop.waitForMessage()).text).toBe("stock SKU-1 +5");
      await member.send("/stock SKU-1 +5", { in: shop });
      expect((await shop.waitForMessage()).text).toBe("Only operators can do that.");
    } finally {
      await bot.stop();
    }
  });

  it("hides ordinary group messages from a bot in privacy mode that is not an admin", async () => {
    const lounge = tg.createGroup({
      title: "Lounge",
      creator: owner,
      members: [member],
      bot: "member",
    });
    expect((await member.send("just chatting", { in: lounge })).updateId).toBe(0);
    expect((await member.send("/help", { in: lounge })).updateId).toBeGreaterThan(0);
    expect((await member.send("/help@other_bot", { in: lounge })).updateId).toBe(0);
    lounge.setBotStatus("administrator");
    expect((await member.send("now visible", { in: lounge })).updateId).toBeGreaterThan(0);
  });

  it("refuses a bot that is not in the group", async () => {
    const other = tg.createGroup({ title: "Elsewhere", creator: owner, bot: "left" });
    const response = await rawCall(tg, "sendMessage", { chat_id: other.chatId, text: "hi" });
    expect(response.status).toBe(403);
    expect(response.body.description).toBe("Forbidden: bot is not a member of the supergroup chat");
  });
});

describe("a group upgraded to a supergroup", () => {
  it("gets a new id: migrate_to_chat_id in the old chat, migrate_from_chat_id in the new, and 400 with the new id for calls to the old", async () => {
    const basic = tg.createGroup({
      title: "Ops",
      type: "group",
      creator: owner,
      members: [member],
    });
    expect(() => shop.upgradeToSupergroup()).toThrow(FakeTelegramError); // already a supergroup
    const { supergroup, migrateTo, migrateFrom } = basic.upgradeToSupergroup();
    expect(supergroup.chat).toMatchObject({ type: "supergroup", title: "Ops" });
    expect(supergroup.chatId).not.toBe(basic.chatId);
    expect(supergroup.status(member)).toBe("member");
    expect(supergroup.status(owner)).toBe("creator");
    const updates = (await rawCall(tg, "getUpdates", {})).body.result as {
      update_id: number;
      message?: { chat: { id: number }; from: { id: number } } & Record<string, unknown>;
    }[];
    const service = updates.filter((u) => u.update_id >= migrateTo.updateId);
    expect(
      service.map((u) => [
        u.message?.chat.id,
        u.message?.migrate_to_chat_id,
        u.message?.migrate_from_chat_id,
      ]),
    ).toEqual([
      [basic.chatId, supergroup.chatId, undefined],
      [supergroup.chatId, undefined, basic.chatId],
    ]);
    expect(migrateFrom.updateId).toBeGreaterThan(migrateTo.updateId);
    expect(service.every((u) => u.message?.from.id === owner.id)).toBe(true);

    const response = await rawCall(tg, "sendMessage", { chat_id: basic.chatId, text: "hi" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      description: "Bad Request: group chat was upgraded to a supergroup chat",
      parameters: { migrate_to_chat_id: supergroup.chatId },
    });
    expect(() => basic.upgradeToSupergroup()).toThrow(FakeTelegramError);
    expect(
      (await rawCall(tg, "sendMessage", { chat_id: supergroup.chatId, text: "hi" })).status,
    ).toBe(200);
  });
});
