// The shopper reads the screen a press leads to, also when a photo card replaced the pressed
// message, and finds a product by search or through its categories, paging the listing.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeTelegram, type SimulatedUser, startFakeTelegram } from "@orderbot/fake-telegram";
import { openProduct, screenAfter } from "../../src/harness/shopper-screens.ts";

type Update = {
  update_id: number;
  message?: { chat: { id: number }; text?: string };
  callback_query?: {
    id: string;
    data: string;
    message: { message_id: number; chat: { id: number } };
  };
};

const TITLES = Array.from({ length: 10 }, (_, i) => `Tea number ${i + 1}`);
const PHOTO = "https://example.com/tea.jpg";

const keyboard = (rows: [string, string][]) => ({
  inline_keyboard: rows.map(([text, callback_data]) => [{ text, callback_data }]),
});
const listingPage = (page: number) =>
  keyboard([
    ...TITLES.slice((page - 1) * 4, page * 4).map((t, i): [string, string] => [
      t,
      `p:${(page - 1) * 4 + i}`,
    ]),
    ...(page * 4 < TITLES.length ? [["Next ▶", `n:${page + 1}`] as [string, string]] : []),
  ]);

/** A bot in a few lines, by polling: the shop's screens, with photo cards for even products. */
async function serve(kit: FakeTelegram, signal: AbortSignal): Promise<void> {
  let offset = 0;
  while (!signal.aborted) {
    const { result } = (await kit.call("getUpdates", { offset, timeout: 0 })) as {
      result: Update[];
    };
    for (const update of result) {
      offset = update.update_id + 1;
      const chat_id = update.message?.chat.id ?? update.callback_query?.message.chat.id;
      if (update.message?.text === "/catalog")
        await kit.call("sendMessage", {
          chat_id,
          text: "Catalog",
          reply_markup: keyboard([["Tea (10)", "c:tea"]]),
        });
      else if (update.message)
        await kit.call("sendMessage", { chat_id, text: "Found 10", reply_markup: listingPage(1) });
      const query = update.callback_query;
      if (!query) continue;
      const at = { chat_id, message_id: query.message.message_id };
      const [kind, arg] = query.data.split(":") as [string, string];
      if (kind === "c" || kind === "n") {
        const page = kind === "c" ? 1 : Number(arg);
        await kit.call("editMessageText", {
          ...at,
          text: `Page ${page}`,
          reply_markup: listingPage(page),
        });
      } else if (Number(arg) % 2 === 0) {
        await kit.call("sendPhoto", { chat_id, photo: PHOTO, caption: `Card ${arg}` });
        await kit.call("deleteMessage", at);
      } else {
        await kit.call("editMessageText", { ...at, text: `Card ${arg}` });
      }
      await kit.call("answerCallbackQuery", { callback_query_id: query.id });
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let kit: FakeTelegram;
let ann: SimulatedUser;
let stop: AbortController;
let serving: Promise<void>;

beforeEach(async () => {
  kit = await startFakeTelegram();
  ann = kit.createUser({ firstName: "Ann" });
  stop = new AbortController();
  serving = serve(kit, stop.signal);
});
afterEach(async () => {
  stop.abort();
  await serving;
  await kit.close();
});

describe("a shopper", () => {
  it("follows a card that became a photo message, and one edited in place", async () => {
    const photo = await openProduct(kit, ann, { title: "Tea number 5" }, false);
    expect(photo.caption).toBe("Card 4");
    expect(photo.photo).toBeDefined();
    expect(kit.chat(ann).messages.filter((m) => m.text === "Page 2")).toEqual([]);
    const text = await openProduct(kit, ann, { title: "Tea number 2" }, false);
    expect(text.text).toBe("Card 1");
    expect(screenAfter(kit, ann, text.message_id).message_id).toBe(text.message_id);
  });

  it("browses through the categories and pages until the product shows", async () => {
    const card = await openProduct(kit, ann, { title: "Tea number 10", categories: ["Tea"] }, true);
    expect(card.text).toBe("Card 9");
    expect(kit.calls.filter((c) => c.method === "editMessageText" && c.ok)).toHaveLength(4);
  });

  it("stops with a reason when the product is not listed", async () => {
    await expect(openProduct(kit, ann, { title: "Coffee" }, false)).rejects.toThrow(
      /"Coffee" is not in the listing/,
    );
  });
});
