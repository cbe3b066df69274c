import {
  Composer,
  InlineKeyboard,
  type CallbackQueryContext,
  type CommandContext,
  type Filter,
} from "grammy";
import {
  TIMELINE_NOTE_MAX,
  type AdvanceOrderResult,
  type FulfilmentService,
  type FulfilmentStep,
} from "@orderbot/core/fulfilment";
import { type OrderService, type OrderStatus } from "@orderbot/core/orders";
import { cutText } from "@orderbot/platform";
import type { BotContext } from "../../bot/context.ts";
import { callbacks, fulfilmentButtons, type ReplyPrompts } from "@orderbot/conversation";
import { formatMoment, whoText } from "../../format/timeline.ts";
import { actorOf, respond } from "./guard.ts";

/** The commands of this feature: each moves an order to one step. */
const STEP_OF = { process: "PROCESSING", ship: "SHIPPED", deliver: "DELIVERED" } as const;
export const FULFILMENT_COMMANDS = Object.keys(STEP_OF) as (keyof typeof STEP_OF)[];

/** The last line of the bot's "tracking note, please" prompt names the order, in every language. */
const PROMPT_MARK = /🚚 ([2-9A-HJKMNP-Z]{6,16})\s*$/u;

/** A reply to the bot's tracking-note prompt: ships that order with the reply as its note. */
export function isShipNoteReply(ctx: BotContext): boolean {
  const replied = ctx.message?.reply_to_message;
  return (
    ctx.message?.text !== undefined &&
    replied?.from?.id === ctx.me.id &&
    PROMPT_MARK.test(replied.text ?? "")
  );
}

/** The next-step buttons of an order in `status`, labelled in the group's language. */
export function nextStepKeyboard(
  ctx: BotContext,
  orderId: string,
  status: OrderStatus,
): InlineKeyboard | undefined {
  const buttons = fulfilmentButtons(orderId, status);
  if (buttons.length === 0) return undefined;
  const keyboard = new InlineKeyboard();
  for (const b of buttons) keyboard.text(ctx.t(`btn-fulfil-${b.step.toLowerCase()}`), b.data);
  return keyboard;
}

/** The operator's name as the group shows it: the timeline keeps it for whoever comes second. */
function nameOf(ctx: BotContext): string | null {
  const from = ctx.from;
  if (!from) return null;
  const name = from.username ? `@${from.username}` : [from.first_name, from.last_name].join(" ");
  return cutText(name.trim(), 128) || null;
}

type FulfilmentDeps = {
  fulfilment: Pick<FulfilmentService, "advance">;
  orders: Pick<OrderService, "get">;
  /** Ship asks for its note by reply: a plain message instead gets a hint (owed-reply.ts). */
  prompts: Pick<ReplyPrompts, "asked" | "answered">;
};

/**
 * Operators move paid orders on from the group: the paid alert's buttons, and `/process ID`,
 * `/ship ID [tracking note]`, `/deliver ID`. The Ship button asks for the tracking note by reply
 * (or "-" for none) before it ships. Core makes the move (one winner under the `order` lock and the
 * version), records it in the timeline and queues the customer's notice; whoever comes second is
 * told who moved the order and when. For the bound group's admins only (the guard in index.ts).
 */
export function fulfilmentFeature(deps: FulfilmentDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.command(FULFILMENT_COMMANDS, (ctx) => stepCommand(ctx, deps));
  feature.callbackQuery(callbacks.fulfil.pattern, (ctx) => stepButton(ctx, deps));
  feature.on("message:text").filter(isShipNoteReply, (ctx) => shipWithNote(ctx, deps));
  return feature;
}

/** `/process ID`, `/ship ID [tracking note]`, `/deliver ID`. */
async function stepCommand(ctx: CommandContext<BotContext>, deps: FulfilmentDeps) {
  const command = ctx.msg.text?.slice(1).split(/[\s@]/)[0]?.toLowerCase() as
    keyof typeof STEP_OF | undefined;
  const step = command ? STEP_OF[command] : undefined;
  if (!command || !step) return;
  const [id, ...words] = (typeof ctx.match === "string" ? ctx.match : "").trim().split(/\s+/);
  if (!id) return respond(ctx, ctx.t(`op-fulfil-usage-${command}`));
  const note = words.join(" ").trim();
  if (step === "SHIPPED" && ctx.from) await deps.prompts.answered(ctx.chat.id, ctx.from.id);
  await advance(ctx, deps, id.toUpperCase(), step, note === "" ? null : note);
}

/** A button of the paid alert; Ship asks for the tracking note first. */
async function stepButton(ctx: CallbackQueryContext<BotContext>, deps: FulfilmentDeps) {
  const data = callbacks.fulfil.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  if (data.step !== "SHIPPED") return advance(ctx, deps, data.orderId, data.step, null);
  // Shipping asks for the tracking note first, and the reply ships it (below); an order that
  // cannot ship now (shipped already, refunded) is answered at once, by core, who and when.
  const order = await deps.orders.get(data.orderId);
  if (order?.status !== "PAID" && order?.status !== "PROCESSING")
    return advance(ctx, deps, data.orderId, data.step, null);
  await ctx.answerCallbackQuery();
  await ctx.reply(ctx.t("op-ship-note-prompt", { id: data.orderId }), {
    reply_markup: { force_reply: true },
    ...(ctx.msg
      ? {
          reply_parameters: { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
        }
      : {}),
  });
  if (ctx.chat)
    await deps.prompts.asked(ctx.chat.id, ctx.from.id, {
      kind: "ship-note",
      orderId: data.orderId,
    });
}

/** The reply to the tracking-note prompt ships the order it names ("-": no note). */
async function shipWithNote(ctx: Filter<BotContext, "message:text">, deps: FulfilmentDeps) {
  const orderId = PROMPT_MARK.exec(ctx.message.reply_to_message?.text ?? "")?.[1];
  if (!orderId) return;
  await deps.prompts.answered(ctx.chat.id, ctx.from.id);
  const text = ctx.message.text.trim();
  await advance(ctx, deps, orderId, "SHIPPED", text === "-" || text === "" ? null : text);
}

/** Moves the order and tells the group: a move made is a message everyone sees, with the next step. */
async function advance(
  ctx: BotContext,
  deps: FulfilmentDeps,
  orderId: string,
  step: FulfilmentStep,
  note: string | null,
): Promise<void> {
  if (note !== null && note.length > TIMELINE_NOTE_MAX)
    return respond(ctx, ctx.t("op-fulfil-note-too-long", { max: TIMELINE_NOTE_MAX }));
  const result = await deps.fulfilment.advance({
    orderId,
    to: step,
    actor: actorOf(ctx),
    actorName: nameOf(ctx),
    note,
  });
  const text = resultText(ctx, orderId, result);
  if (result.status !== "ok") return respond(ctx, text);
  if (ctx.callbackQuery) {
    await ctx.answerCallbackQuery();
    // The pressed buttons are spent: the answer below carries the next step's.
    await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch((error) => {
      ctx.logger.debug({ err: error }, "spent fulfilment buttons not removed");
    });
  }
  const keyboard = nextStepKeyboard(ctx, orderId, result.order.status);
  await ctx.reply(text, keyboard ? { reply_markup: keyboard } : {});
}

function resultText(ctx: BotContext, id: string, result: AdvanceOrderResult): string {
  switch (result.status) {
    case "ok":
      return ctx.t("op-fulfil-ok", {
        id,
        step: result.entry.to,
        who: whoText(ctx.t, result.entry),
        hasNote: result.entry.note ? "yes" : "no",
        note: result.entry.note ?? "",
      });
    case "already":
      return result.entry
        ? ctx.t("op-fulfil-already", {
            id,
            status: ctx.t(`status-${result.current}`),
            when: formatMoment(result.entry.at, ctx.locale, ctx.shopTime.zone),
            who: whoText(ctx.t, result.entry),
          })
        : ctx.t("op-fulfil-already-unknown", { id, status: ctx.t(`status-${result.current}`) });
    case "conflict":
      return ctx.t("op-fulfil-not-paid", { id, status: ctx.t(`status-${result.current}`) });
    case "invalid":
      return ctx.t("op-fulfil-note-too-long", { max: TIMELINE_NOTE_MAX });
    case "not-found":
      return ctx.t("order-not-found");
    case "busy":
      return ctx.t("op-busy");
    case "unavailable":
      return ctx.t("op-unavailable");
  }
}
