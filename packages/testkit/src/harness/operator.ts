import { setTimeout as sleep } from "node:timers/promises";
import type { FakeTelegram, SimulatedGroup, SimulatedUser } from "@orderbot/fake-telegram";

/** One `/stock` command the operator sent, and what the bot said it did. */
export interface StockCommand {
  updateId: number;
  messageId: number;
  sku: string;
  change: string;
  delivered: boolean;
  /** From "SKU: stock A → B."; absent when the bot refused or said nothing. */
  before?: number;
  after?: number;
  /**
   * What the bot said the command changed: B - A, or, when only the answer to a re-delivery
   * came ("SKU: +N was applied already …; stock now C."), that N.
   */
  delta?: number;
  /** The stock level the bot last reported for the command (B, or C). */
  now?: number;
  /** The bot's replies to the command, in order (a re-delivered command gets one per run). */
  replies: string[];
}

/** One /ship or /deliver the operator sent, and whether the bot said it moved the order. */
export interface FulfilCommand {
  orderId: string;
  step: "ship" | "deliver";
  delivered: boolean;
  /** The bot said the order moved (a re-delivered command may also say "Already done"). */
  moved: boolean;
  replies: string[];
}

/** How long a handled command's reply may take: one the worker's outbox sends after a 429. */
const REPLY_WAIT_MS = 20_000;

const ORDER_LINE = /^([A-Z0-9]{6,16}) · /;

const STOCK_OK = /: stock (-?\d+) → (-?\d+)\./;
const STOCK_REPLAYED = /: ([+-]\d+) was applied already .*; stock now (-?\d+)\./;

/**
 * An operator running the shop from the group: stock changes with `/stock SKU +N|=N`, each one
 * recorded with the bot's reply, so a run can check that every change took effect exactly once;
 * paid orders shipped with `/ship ID NOTE` and delivered with `/deliver ID`.
 */
export class Operator {
  readonly commands: StockCommand[] = [];
  /** Every /ship and /deliver the operator sent. */
  readonly fulfilments: FulfilCommand[] = [];

  constructor(
    private readonly kit: FakeTelegram,
    readonly user: SimulatedUser,
    readonly group: SimulatedGroup,
    /** How long to wait for a handled command's reply before going on without it (ms). */
    private readonly replyWaitMs = REPLY_WAIT_MS,
  ) {}

  async stock(sku: string, change: string): Promise<StockCommand> {
    return (await this.stockHandled(sku, change)).replied;
  }

  /**
   * Sends `/stock` and resolves once the bot handled it (the change is made), without waiting for
   * its reply: a shopper restocking for itself must not leave the unit to the crowd meanwhile.
   * `replied` resolves with the command once its reply came (or REPLY_WAIT_MS passed).
   */
  async stockHandled(sku: string, change: string): Promise<{ replied: Promise<StockCommand> }> {
    const sent = await this.user.send(`/stock ${sku} ${change}`, { in: this.group });
    const command: StockCommand = {
      updateId: sent.updateId,
      messageId: sent.message.message_id,
      sku,
      change,
      delivered: false,
      replies: [],
    };
    this.commands.push(command);
    command.delivered = (await sent.handled()).status === "delivered";
    return { replied: this.stockReplies(command) };
  }

  /** Waits for the bot's reply to a handled `/stock`, then fills in what the replies say. */
  private async stockReplies(command: StockCommand): Promise<StockCommand> {
    // A reply the group's budget (or a 429) left to the worker's outbox comes a little later.
    if (command.delivered) await this.until(() => this.quoting(command).length > 0);
    return this.readReplies(command);
  }

  /**
   * Reads every command's replies again. A reply can come after the wait gave up on it: the
   * outbox relay sends it once the group's budget (20 a minute) has room, or once the claim of a
   * bot killed mid-send lapses (30 s). Checkers call this once the outbox is drained, so "no
   * reply" means none was ever sent.
   */
  rereadReplies(): StockCommand[] {
    for (const command of this.commands) this.readReplies(command);
    return this.commands;
  }

  private quoting(command: StockCommand): string[] {
    return this.kit
      .chat(this.group)
      .botMessages.filter((m) => m.reply_to_message?.message_id === command.messageId && m.text)
      .map((m) => m.text!);
  }

  /** Sets the command's replies, and what they say it changed, from the group's messages. */
  private readReplies(command: StockCommand): StockCommand {
    command.replies = this.quoting(command);
    for (const reply of command.replies) {
      const ok = STOCK_OK.exec(reply);
      const replayed = STOCK_REPLAYED.exec(reply);
      if (ok && command.before === undefined) {
        command.before = Number(ok[1]);
        command.after = Number(ok[2]);
        command.delta = command.after - command.before;
      }
      if (replayed) command.delta ??= Number(replayed[1]);
      if (ok || replayed) command.now = Number((ok ?? replayed)![2]);
    }
    return command;
  }

  /** The ids `/orders STATUS` lists (the latest ones). */
  async ordersIn(status: "paid" | "shipped"): Promise<string[]> {
    const sent = await this.user.send(`/orders ${status}`, { in: this.group });
    await sent.handled();
    return this.repliesTo(sent.message.message_id)
      .flatMap((reply) => reply.split("\n"))
      .flatMap((line) => ORDER_LINE.exec(line)?.[1] ?? []);
  }

  /** `/ship ID NOTE` or `/deliver ID`, recorded with the bot's answer. */
  async fulfil(orderId: string, step: "ship" | "deliver", note?: string): Promise<FulfilCommand> {
    const text = `/${step} ${orderId}${note ? ` ${note}` : ""}`;
    const sent = await this.user.send(text, { in: this.group });
    const command: FulfilCommand = { orderId, step, delivered: false, moved: false, replies: [] };
    this.fulfilments.push(command);
    command.delivered = (await sent.handled()).status === "delivered";
    const mine = () => this.repliesTo(sent.message.message_id).filter((r) => r.includes(orderId));
    if (command.delivered) await this.until(() => mine().length > 0);
    const done = step === "ship" ? "shipped" : "delivered";
    command.replies = mine();
    command.moved = command.replies.some((r) => r.includes(`Order ${orderId} is ${done}`));
    return command;
  }

  /**
   * Ships every paid order `/orders paid` lists, and delivers what `/orders shipped` lists, until
   * the signal aborts (then one last round). The tracking note names the order.
   */
  async fulfilWhile(options: { everyMs: number; signal: AbortSignal }): Promise<void> {
    const { signal } = options;
    for (let last = false; !last;) {
      await sleep(options.everyMs, undefined, { signal }).catch(() => undefined);
      last = signal.aborted;
      await this.fulfilRound();
    }
  }

  /** One round: ship the paid orders listed, then deliver the shipped ones. Returns how many moved. */
  async fulfilRound(): Promise<number> {
    let moved = 0;
    for (const id of await this.ordersIn("paid"))
      if ((await this.fulfil(id, "ship", `TRACK-${id}`)).moved) moved++;
    for (const id of await this.ordersIn("shipped"))
      if ((await this.fulfil(id, "deliver")).moved) moved++;
    return moved;
  }

  /** Polls until `check` holds, at most the reply wait. */
  private async until(check: () => boolean): Promise<void> {
    const deadline = Date.now() + this.replyWaitMs;
    while (!check() && Date.now() < deadline) await sleep(50);
  }

  /**
   * The bot's messages in the group since the command (it answers some commands without quoting
   * them); callers pick theirs by content, since alerts may come in between.
   */
  private repliesTo(messageId: number): string[] {
    return this.kit
      .chat(this.group)
      .botMessages.filter((m) => m.message_id > messageId && m.text)
      .map((m) => m.text!);
  }

  /**
   * Turns the group's paid-order notices off through /settings, as operators do before a flash
   * sale: Telegram lets a bot post about 20 messages a minute in a group, fewer than a sale's orders.
   */
  async mutePaidOrderNotices(): Promise<boolean> {
    const sent = await this.user.send("/settings", { in: this.group });
    await sent.handled();
    const button = this.kit
      .chat(this.group)
      .buttons.find((label) => /^Paid-order notices: on$/.test(label));
    if (!button) return this.kit.chat(this.group).buttons.includes("Paid-order notices: off");
    const press = await this.user.press(button, { in: this.group });
    await press.handled();
    return this.kit.chat(this.group).buttons.includes("Paid-order notices: off");
  }

  /**
   * Restocks while a sale runs: every `everyMs` (jittered) adds a few units of a random product,
   * until the signal aborts. Resolves when the loop ends.
   */
  async restockWhile(options: {
    skus: string[];
    everyMs: number;
    units: [number, number];
    random: () => number;
    signal: AbortSignal;
  }): Promise<void> {
    const { random, signal } = options;
    while (!signal.aborted) {
      await sleep(options.everyMs * (0.5 + random()), undefined, { signal }).catch(() => undefined);
      if (signal.aborted) break;
      const sku = options.skus[Math.floor(random() * options.skus.length)]!;
      const units =
        options.units[0] + Math.floor(random() * (options.units[1] - options.units[0] + 1));
      await this.stock(sku, `+${units}`);
    }
  }
}
