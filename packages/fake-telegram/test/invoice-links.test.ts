// createInvoiceLink as Telegram checks it (sendInvoice's terms, no chat), and paying a link as a
// Mini App's openInvoice does: a pre_checkout_query, then the successful_payment in the private
// chat with the bot, only when the bot said yes.
import { describe, expect, it } from "vitest";
import type { FakeTelegram, SimulatedUser } from "../src/index.ts";
import { failure, rawCall } from "./support/raw.ts";
import { useFakeTelegram } from "./support/ann.ts";

let tg: FakeTelegram;
let ann: SimulatedUser;

useFakeTelegram({}, async (opened) => {
  tg = opened;
  ann = tg.createUser({ firstName: "Ann" });
  await ann.send("/start");
});

const terms = (extra: Record<string, unknown> = {}) => ({
  title: "Widget",
  description: "One widget",
  payload: "order:1",
  currency: "XTR",
  prices: [{ label: "Widget", amount: 5 }],
  ...extra,
});

async function link(extra: Record<string, unknown> = {}): Promise<string> {
  const response = await rawCall(tg, "createInvoiceLink", terms(extra));
  expect(response.body.ok).toBe(true);
  return response.body.result as string;
}

const answered = new Set<string>();

/** Answers the next pre-checkout query as the bot would. */
async function answerNextPreCheckout(ok: boolean): Promise<void> {
  for (;;) {
    const id = tg.pendingUpdates
      .map((u) => u.update.pre_checkout_query?.id)
      .find((q): q is string => q !== undefined && !answered.has(q));
    if (id) {
      answered.add(id);
      await rawCall(tg, "answerPreCheckoutQuery", {
        pre_checkout_query_id: id,
        ok,
        ...(ok ? {} : { error_message: "No." }),
      });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("createInvoiceLink", () => {
  it("answers a t.me link and refuses what sendInvoice refuses", async () => {
    expect(await link()).toMatch(/^https:\/\/t\.me\/\$[A-Za-z0-9_-]+$/);
    expect(failure(await rawCall(tg, "createInvoiceLink", terms({ title: "t".repeat(33) })))).toBe(
      "400 400 Bad Request: INVOICE_TITLE_INVALID",
    );
    const long = terms({ payload: "p".repeat(129) });
    expect(failure(await rawCall(tg, "createInvoiceLink", long))).toBe(
      "400 400 Bad Request: INVOICE_PAYLOAD_INVALID",
    );
    const twoPrices = terms({
      prices: [
        { label: "a", amount: 1 },
        { label: "b", amount: 1 },
      ],
    });
    expect(failure(await rawCall(tg, "createInvoiceLink", twoPrices))).toBe(
      "400 400 Bad Request: STARS_INVOICE_INVALID",
    );
  });
});

describe("paying an invoice link", () => {
  it("charges only after the bot approves, and posts successful_payment in the private chat", async () => {
    const url = await link();
    const [declined] = await Promise.all([ann.payLink(url), answerNextPreCheckout(false)]);
    expect(declined.status).toBe("declined");
    expect(tg.charges).toEqual([]);

    const [paid] = await Promise.all([ann.payLink(url), answerNextPreCheckout(true)]);
    if (paid.status !== "paid") throw new Error(paid.status);
    expect(paid.message.chat.id).toBe(ann.id);
    expect(paid.message.successful_payment).toMatchObject({
      currency: "XTR",
      total_amount: 5,
      invoice_payload: "order:1",
    });
    expect(tg.charges.map((c) => c.chargeId)).toEqual([paid.chargeId]);
  });

  it("refuses a URL that is not one of the bot's invoice links", async () => {
    await expect(ann.payLink("https://t.me/$nothing")).rejects.toThrow(/not an invoice link/);
  });
});
