// The web client as a person uses it: by the roles and names of what is on screen, never by the
// control API. Each step waits for what the person would wait to see.
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { PROJECT_ROOT } from "@orderbot/testkit";

export const SCREENSHOTS = path.join(PROJECT_ROOT, ".data/browser");

export function chatPage(page: Page) {
  const log = page.getByRole("log", { name: "Messages" });
  /** The newest message showing `text`, once it is there. */
  const message = async (text: string | RegExp): Promise<Locator> => {
    const found = log.getByRole("listitem").filter({ hasText: text }).last();
    await found.waitFor({ timeout: 20_000 });
    return found;
  };
  return {
    message,
    async say(text: string): Promise<void> {
      await page.getByRole("textbox", { name: "Message", exact: true }).fill(text);
      await page.getByRole("button", { name: "Send", exact: true }).click();
    },
    /** Presses the button on the newest message that shows it. */
    async press(name: string | RegExp, on?: Locator): Promise<void> {
      await (on ?? log).getByRole("button", { name, exact: true }).last().click();
    },
    /** Opens a chat from the sidebar by its button (`name`); its heading is `title`. */
    async openChat(name: string, title = name): Promise<void> {
      const chats = page.getByRole("navigation", { name: "Chats" });
      await chats.getByRole("button", { name, exact: true }).click();
      await page.getByRole("heading", { name: title, exact: true }).waitFor();
    },
    async snap(name: string): Promise<void> {
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    },
  };
}
