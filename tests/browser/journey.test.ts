// A person's journey through the fake Telegram's web client, against the real shop (one bot and
// one worker): create a user, /start, browse the catalog, add to the cart, check out, pay, and see
// the order card turn to paid; then, as the operator group's owner, ship the order with a note and
// see the customer's chat get the notice. Only the page's own controls; axe checks each screen.
import { describe, expect, it } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { useBrowserShop } from "./support/browser-shop.ts";
import { chatPage } from "./support/chat-page.ts";

const shop = useBrowserShop();

describe("the web client", () => {
  it("takes a person from /start to a paid order, and the operator ships it", async () => {
    const { page, run } = shop;
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const chat = chatPage(page);
    await page.goto(`${run.kit.apiRoot}/`);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("textbox", { name: "Name" }).fill("Mia");
    await page.getByRole("combobox", { name: "Language" }).selectOption("en");
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("heading", { name: "Mia", exact: true }).waitFor();
    await chat.say("/start");
    await chat.message("Welcome, Mia!");
    await chat.press("🛍 Catalog");
    await chat.message("Catalog: pick a category.");
    await chat.press(/^Teaware \(\d+\)$/);
    await chat.message(/Teaware, page 1/);
    await chat.press("Celadon tea cup");
    await chat.press("🛒 Add 1 to cart");
    await chat.message("In your cart: 1");
    await chat.press("🛒 Cart (1)");
    await chat.press("✅ Checkout · 15 ⭐");
    const card = await chat.message(/Order [2-9A-Z]{8}\n/);
    const id = /Order ([2-9A-Z]{8})/.exec(await card.innerText())![1]!;
    await chat.press("Pay 15 ⭐", card);
    const invoice = page.getByRole("group", { name: /^Invoice:/ }).last();
    await chat.press("Pay 15 ⭐", invoice);
    await invoice.getByText("✅ Paid").waitFor();
    await chat.message(`Payment received: order ${id} is paid.`);
    await chat.message(new RegExp(`Order ${id}[^]*Status: paid`));
    await chat.snap("journey-1-paid");
    expect(await seriousViolations(page)).toEqual([]);

    await chat.openChat("Shop operators");
    const alert = await chat.message(`Order ${id} was paid`);
    await chat.press("🚚 Mark shipped", alert);
    const prompt = await chat.message(/tracking note/);
    await prompt.getByRole("button", { name: /^Reply to message/ }).click();
    await chat.say("DHL 00340434");
    await chat.message(`Order ${id} is shipped`);
    await chat.snap("journey-2-shipped");
    expect(await seriousViolations(page)).toEqual([]);

    await chat.openChat("Mia (en)", "Mia");
    const notice = await chat.message(`Your order ${id} has shipped.`);
    expect(await notice.innerText()).toContain("Tracking: DHL 00340434");
    await page.getByRole("status").waitFor({ state: "hidden" });
    await chat.snap("journey-3-notice");
    expect(errors).toEqual([]);
  }, 180_000);
});
