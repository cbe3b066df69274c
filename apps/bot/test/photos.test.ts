// Product photos through the fake Telegram: a card moves between text and photo messages (which
// Telegram cannot edit into each other), and operators set a product's photo from the group.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type {
  FakeTelegram,
  SimulatedGroup,
  SimulatedUser,
  TgMessage,
} from "@orderbot/fake-telegram";
import { callbacks } from "@orderbot/conversation";
import { OWNER_ID, startBotHarness, type BotHarness } from "./support/harness.ts";

let h: BotHarness;
let kit: FakeTelegram;
let ann: SimulatedUser;
let admin: SimulatedUser;
let member: SimulatedUser;
let group: SimulatedGroup;
let tea: { id: number; sku: string };
let cup: { id: number; sku: string };
let pot: { id: number; sku: string };

const TEA_URL = "https://example.com/photos/tea.jpg";
const POT_URL = "https://example.com/photos/pot.jpg";

beforeAll(async () => {
  h = await startBotHarness();
  kit = h.kit;
  const owner = kit.createUser({ id: OWNER_ID, firstName: "Owner", languageCode: "en" });
  admin = kit.createUser({ firstName: "Admin", languageCode: "en" });
  member = kit.createUser({ firstName: "Member", languageCode: "en" });
  group = kit.createGroup({ title: "Ops", creator: owner, admins: [admin], members: [member] });
  await owner.send("/bind", { in: group });
  await group.waitForMessage(/operator group/);
  ann = kit.createUser({ firstName: "Ann", languageCode: "en" });
  await ann.send("/start");
  await ann.waitForMessage();
  const products = await h.db.product.findMany({
    where: { active: true, stock: { gt: 2 } },
    orderBy: { id: "asc" },
    take: 3,
  });
  [tea, cup, pot] = products.map((p) => ({ id: p.id, sku: p.sku })) as [
    typeof tea,
    typeof cup,
    typeof pot,
  ];
});
afterAll(() => h?.close());

beforeEach(async () => {
  await h.db.product.updateMany({ data: { photo: null } });
  await h.db.product.update({ where: { id: tea.id }, data: { photo: TEA_URL } });
  await h.db.product.update({ where: { id: pot.id }, data: { photo: POT_URL } });
});

const open = (productId: number) =>
  ann.pressData(callbacks.product.encode({ productId, qty: 1, categoryId: 0, page: 1 }), {
    force: true,
  });
const visible = (messageId: number): TgMessage | undefined =>
  kit.chat(ann).messages.find((m) => m.message_id === messageId);
const lastButtonData = (message: TgMessage): string => {
  const button = message.reply_markup?.inline_keyboard.at(-1)?.at(-1);
  if (!button || !("callback_data" in button)) throw new Error("the card has no back button");
  return button.callback_data!;
};
const callsSince = (seq: number, method: string) =>
  kit.callsTo(method).filter((c) => c.seq > seq && c.ok);
const lastSeq = () => kit.calls.at(-1)?.seq ?? 0;

describe("a product card with and without a photo", () => {
  it("goes text list → photo card → photo card (+) → text list → text card", async () => {
    await ann.send("/catalog");
    const list = await ann.waitForMessage();
    expect(list.photo).toBeUndefined();

    // Text → photo: Telegram cannot edit a text into a photo, so the card is sent, the list deleted.
    let seq = lastSeq();
    await (await open(tea.id)).handled();
    const card = await ann.waitForMessage((m) => m.photo !== undefined);
    expect(card.caption).toContain("Quantity");
    expect(visible(list.message_id)).toBeUndefined();
    expect(callsSince(seq, "editMessageText")).toEqual([]);
    const teaPhoto = card.photo!.at(-1)!.file_unique_id;

    // Photo → the same photo with another quantity: only the caption changes.
    seq = lastSeq();
    await (await ann.press("+", { messageId: card.message_id })).handled();
    await kit.waitForCall("editMessageCaption", (c) => c.seq > seq && c.ok);
    expect(callsSince(seq, "editMessageMedia")).toEqual([]);
    expect(visible(card.message_id)?.caption).toContain("Quantity: 2");
    expect(visible(card.message_id)?.photo?.at(-1)?.file_unique_id).toBe(teaPhoto);

    // Photo → text (the catalog): sent as a new message, the photo card deleted.
    seq = lastSeq();
    await (await ann.pressData(lastButtonData(visible(card.message_id)!))).handled();
    const back = await ann.waitForMessage((m) => m.text !== undefined);
    expect(visible(card.message_id)).toBeUndefined();
    expect(back.photo).toBeUndefined();

    // Text → text: a product without a photo is edited in place, as before.
    seq = lastSeq();
    await (await open(cup.id)).handled();
    await kit.waitForCall("editMessageText", (c) => c.seq > seq && c.ok);
    expect(visible(back.message_id)?.text).toContain("Quantity");
    expect(callsSince(seq, "sendPhoto")).toEqual([]);
  });

  it("replaces one product's photo card with another's by editing the media", async () => {
    await ann.send("/catalog");
    await ann.waitForMessage();
    await (await open(tea.id)).handled();
    const card = await ann.waitForMessage((m) => m.photo !== undefined);
    const seq = lastSeq();
    await (await open(pot.id)).handled();
    await kit.waitForCall("editMessageMedia", (c) => c.seq > seq && c.ok);
    const shown = visible(card.message_id)!;
    expect(shown.photo?.at(-1)?.file_unique_id).not.toBe(card.photo?.at(-1)?.file_unique_id);
    expect(shown.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toContain("+");
  });

  it("shows the text card when Telegram cannot load the photo", async () => {
    await h.db.product.update({
      where: { id: tea.id },
      data: { photo: "https://images.invalid/tea.jpg" },
    });
    await ann.send("/catalog");
    const list = await ann.waitForMessage();
    const seq = lastSeq();
    await (await open(tea.id)).handled();
    await kit.waitForCall("editMessageText", (c) => c.seq > seq && c.ok);
    expect(visible(list.message_id)?.text).toContain("Quantity");
    expect(kit.chat(ann).messages.filter((m) => m.message_id > list.message_id)).toEqual([]);
  });
});

describe("/photo in the operator group", () => {
  const photoOf = async (sku: string) =>
    (await h.db.product.findUniqueOrThrow({ where: { sku } })).photo;

  it("sets a URL after Telegram showed it as a preview", async () => {
    const sent = await admin.send(`/photo ${cup.sku} https://example.com/photos/cup.jpg`, {
      in: group,
    });
    await sent.handled();
    const preview = await group.waitForMessage((m) => m.photo !== undefined);
    expect(preview.caption).toBe(`${cup.sku}: this photo is now on the product's card.`);
    expect(await photoOf(cup.sku)).toBe("https://example.com/photos/cup.jpg");
  });

  it("sets a photo sent with the caption /photo SKU, and customers see that photo", async () => {
    const sent = await admin.sendPhoto({ in: group, caption: `/photo ${cup.sku}` });
    await sent.handled();
    await group.waitForMessage(`${cup.sku}: this photo is now on the product's card.`);
    const largest = sent.message.photo!.at(-1)!;
    expect(await photoOf(cup.sku)).toBe(largest.file_id);

    await ann.send("/catalog");
    await ann.waitForMessage();
    await (await open(cup.id)).handled();
    const card = await ann.waitForMessage((m) => m.photo !== undefined);
    expect(card.photo!.at(-1)!.file_unique_id).toBe(largest.file_unique_id);
  });

  it("removes a photo with none", async () => {
    await admin.send(`/photo ${tea.sku} none`, { in: group });
    await group.waitForMessage(`${tea.sku}: the photo was removed; the card shows text only.`);
    expect(await photoOf(tea.sku)).toBeNull();
  });

  it("changes nothing for a bad address, a picture Telegram cannot load, or an unknown SKU", async () => {
    await admin.send(`/photo ${tea.sku} not-a-url`, { in: group });
    await group.waitForMessage(/neither an http\(s\) address/);
    await admin.send(`/photo ${tea.sku} https://images.invalid/x.jpg`, { in: group });
    await group.waitForMessage(/could not load a picture/);
    await admin.send(`/photo NO-SUCH-SKU https://example.com/a.jpg`, { in: group });
    await group.waitForMessage("There is no product with SKU NO-SUCH-SKU.");
    await admin.send(`/photo ${tea.sku}`, { in: group });
    await group.waitForMessage(/^Usage: \/photo SKU URL/);
    expect(await photoOf(tea.sku)).toBe(TEA_URL);
  });

  it("refuses someone who is not an admin", async () => {
    await member.sendPhoto({ in: group, caption: `/photo ${tea.sku}` });
    await group.waitForMessage("Only this group's administrators can do that.");
    expect(await photoOf(tea.sku)).toBe(TEA_URL);
  });
});
