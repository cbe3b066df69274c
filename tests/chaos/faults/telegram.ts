// Faults on the Telegram side, injected by the kit: bursts of 429s and 500s on the methods the bot
// and the worker call, and webhook deliveries duplicated or whose 2xx is lost (so Telegram sends
// the update again). The kit's call and delivery logs count what was really injected.
import { setTimeout as sleep } from "node:timers/promises";
import type { Fault } from "../fault.ts";

const SENDING = [
  "sendMessage",
  "editMessageText",
  "answerCallbackQuery",
  "sendInvoice",
  "answerPreCheckoutQuery",
];

/** On for 1.5 s, off for 1.5 s, until the load is over: bursts, as Telegram's hiccups come. */
export function telegramErrorBursts(): Fault {
  return {
    label: "bursts of Telegram 429s and 500s",
    happened: (c) => c.telegram429 > 0 && c.telegram500 > 0,
    async run(ctx) {
      let bursts = 0;
      while (!ctx.loadDone()) {
        const rule = ctx.env.shop.kit.faults.set({
          method: SENDING,
          rate429: 0.25,
          retryAfter: 1,
          rate500: 0.15,
        });
        bursts++;
        await sleep(1_500);
        rule.remove();
        await sleep(1_500);
      }
      ctx.note(`${bursts} bursts of 429 (retry_after 1) and 500 on ${SENDING.join(", ")}`);
    },
  };
}

export function duplicateDeliveries(): Fault {
  return {
    label: "duplicate deliveries",
    happened: (c) => c.duplicateDeliveries > 0 && c.droppedResponses > 0,
    async run(ctx) {
      ctx.env.shop.kit.faults.delivery({ duplicateRate: 0.15, dropResponseRate: 0.08 });
      while (!ctx.loadDone()) await sleep(200);
      ctx.env.shop.kit.faults.delivery({});
      ctx.note(
        "15% of delivered updates sent again; 8% of 2xx answers lost (the update comes again)",
      );
    },
  };
}
