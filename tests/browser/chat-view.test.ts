// What the web client draws of a chat, against the fake Telegram alone: the bot's side is played
// by plain Bot API calls, the person's by the page's controls. Entities, an edit in place, a
// deletion, a photo, a document, the reply keyboard, a callback answer as an alert, and a web_app
// button opening its URL in the Mini App panel.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startFakeTelegram, type FakeTelegram, type TgMessage } from "@orderbot/fake-telegram";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium } from "./support/chromium.ts";
import { chatPage } from "./support/chat-page.ts";

let tg: FakeTelegram;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  tg = await startFakeTelegram({ controlApi: true });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});
afterAll(async () => {
  await browser?.close();
  await tg?.close();
});

/** The bot's side: a Bot API call, as any bot would make it. */
async function bot(method: string, params: Record<string, unknown>): Promise<TgMessage> {
  const response = await fetch(`${tg.url}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  const body = (await response.json()) as { ok: boolean; result: TgMessage; description?: string };
  if (!body.ok) throw new Error(`${method}: ${body.description}`);
  return body.result;
}

async function nextCallbackQuery(): Promise<string> {
  await expect.poll(() => tg.pendingUpdates.some((u) => u.update.callback_query)).toBe(true);
  return tg.pendingUpdates.find((u) => u.update.callback_query)!.update.callback_query!.id;
}

describe("the chat view", () => {
  it("draws what the bot sends and sends what the person does", async () => {
    const chat = chatPage(page);
    await page.goto(`${tg.apiRoot}/`);
    await page.getByRole("textbox", { name: "Name" }).fill("Ann");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("heading", { name: "Ann", exact: true }).waitFor();
    await chat.say("/start");
    await chat.message("/start");
    const chatId = tg.deliveries.at(-1)!.update.message!.chat.id;

    const hello = await bot("sendMessage", {
      chat_id: chatId,
      text: '<b>Bold</b> and <a href="https://example.com/tea">a link</a>',
      parse_mode: "HTML",
    });
    const shown = await chat.message("Bold and a link");
    expect(await shown.locator("strong").innerText()).toBe("Bold");
    expect(await shown.getByRole("link", { name: "a link" }).getAttribute("href")).toBe(
      "https://example.com/tea",
    );

    await bot("editMessageText", { chat_id: chatId, message_id: hello.message_id, text: "Edited" });
    const edited = await chat.message("Edited");
    expect(await edited.innerText()).toContain("edited");
    expect(await page.getByText("Bold and a link").count()).toBe(0);

    const doomed = await bot("sendMessage", { chat_id: chatId, text: "Going away" });
    await chat.message("Going away");
    await bot("deleteMessage", { chat_id: chatId, message_id: doomed.message_id });
    await page.getByText("Going away").waitFor({ state: "detached" });

    await bot("sendPhoto", {
      chat_id: chatId,
      photo: "https://example.com/tea.jpg",
      caption: "Tea",
    });
    const photo = await chat.message("Tea");
    await photo.getByRole("img", { name: "Photo, 800×600" }).waitFor();

    await page.getByLabel("Attach a document").setInputFiles({
      name: "codes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("GIFT-1\n"),
    });
    await chat.say("/codes");
    await chat.message("📄 codes.txt");
    const sent = tg.chat(chatId).messages.at(-1)!;
    expect([sent.document?.file_name, sent.caption]).toEqual(["codes.txt", "/codes"]);

    await bot("sendMessage", {
      chat_id: chatId,
      text: "Are you sure?",
      reply_markup: { keyboard: [["Yes", "No"]], one_time_keyboard: true },
    });
    await page
      .getByRole("group", { name: "Reply keyboard" })
      .getByRole("button", { name: "Yes" })
      .click();
    await expect.poll(() => tg.chat(chatId).messages.at(-1)?.text).toBe("Yes");

    // force_reply opens the reply, with its placeholder, as Telegram's clients do; once.
    const replying = page.locator("#replying");
    const input = page.getByRole("textbox", { name: "Message", exact: true });
    const prompt = await bot("sendMessage", {
      chat_id: chatId,
      text: "Tracking note?",
      reply_markup: { force_reply: true, input_field_placeholder: "DHL 0034" },
    });
    await replying.getByText("Replying to: Tracking note?").waitFor();
    expect(await input.getAttribute("placeholder")).toBe("DHL 0034");
    await chat.say("DHL 0034");
    await expect
      .poll(() => tg.chat(chatId).messages.at(-1)?.reply_to_message?.message_id)
      .toBe(prompt.message_id);
    await bot("sendMessage", {
      chat_id: chatId,
      text: "Note?",
      reply_markup: { force_reply: true },
    });
    await replying.getByText("Replying to: Note?").waitFor();
    await replying.getByRole("button", { name: "Cancel reply" }).click();
    await bot("sendMessage", { chat_id: chatId, text: "Still there" });
    await chat.message("Still there");
    expect(await replying.isHidden()).toBe(true);

    await bot("sendMessage", {
      chat_id: chatId,
      text: "Ship it?",
      reply_markup: { inline_keyboard: [[{ text: "Ship", callback_data: "ship:1" }]] },
    });
    await chat.press("Ship", await chat.message("Ship it?"));
    await bot("answerCallbackQuery", {
      callback_query_id: await nextCallbackQuery(),
      text: "Shipped already",
      show_alert: true,
    });
    const alert = page.getByRole("dialog", { name: "Message from the bot" });
    await alert.getByText("Shipped already").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await alert.getByRole("button", { name: "OK" }).click();

    const appUrl = `${tg.apiRoot}/_kit`;
    await bot("sendMessage", {
      chat_id: chatId,
      text: "Our shop",
      reply_markup: { inline_keyboard: [[{ text: "Open the shop", web_app: { url: appUrl } }]] },
    });
    await chat.press("Open the shop", await chat.message("Our shop"));
    const panel = page.getByRole("complementary", { name: "Open the shop" });
    expect(await panel.locator("iframe").getAttribute("src")).toBe(appUrl);
  });

  it("tells two users of one name apart by the end of their ids", async () => {
    await page.getByRole("textbox", { name: "Name" }).fill("Ann");
    await page.getByRole("button", { name: "Create user" }).click();
    const chats = page.getByRole("navigation", { name: "Chats" });
    await chats
      .getByRole("button", { name: /^Ann \(en\) #\d{4}$/ })
      .nth(1)
      .waitFor();
    expect(await chats.getByRole("button", { name: "Ann (en)", exact: true }).count()).toBe(0);
  });
});
