// The fake Telegram Bot API, assembled: state, update queue, webhook and getUpdates delivery,
// faults, recorder, simulated users and the HTTP server, behind one object for tests.
import type { AddressInfo } from "node:net";
import type { StarTransaction, WebhookInfo } from "@grammyjs/types";
import type { FastifyInstance } from "fastify";
import type { ChatView } from "./chat-view.ts";
import { LongPoller } from "./delivery/polling.ts";
import { type QueuedUpdate, UpdateQueue } from "./delivery/queue.ts";
import { WebhookDelivery, type WebhookConfig, type WebhookOptions } from "./delivery/webhook.ts";
import { dispatch, type DispatchDeps, type Envelope } from "./dispatch.ts";
import { FakeTelegramError } from "./errors.ts";
import { Faults, seededRandom } from "./faults.ts";
import { FloodControl, type FloodLimits } from "./flood.ts";
import { createGroupChat, type CreateGroupOptions, SimulatedGroup } from "./groups.ts";
import { getMeResult } from "./methods/bot.ts";
import type { KitContext } from "./methods/context.ts";
import { getWebhookInfo } from "./methods/webhook.ts";
import { Args } from "./args.ts";
import { allowedHostsFor } from "./browser-guard.ts";
import { type Pacing, type PacingFilter, type RecordedCall, Recorder } from "./recorder.ts";
import { controlRoutes } from "./control.ts";
import { webClientRoutes } from "./web/index.ts";
import { buildServer } from "./server.ts";
import { type ChargeRecord, TelegramState } from "./state.ts";
import {
  recordCharge,
  refundFromOutside,
  starTransactionOf,
  uniqueChargeId,
} from "./stars-ledger.ts";
import { type ChatRef, chatIdOf, type TgMessage, type UserFromGetMe } from "./types.ts";
import { type CreateUserOptions, SimulatedUser } from "./users.ts";
import { type MessageMatch, type WaitForMessageOptions, waitForMessage } from "./waits.ts";

export interface FakeTelegramOptions {
  /** The bot token; its digits before ":" are the bot's id. Default "8000000001:TEST-orderbot-fake-token". */
  token?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default "127.0.0.1". A host name here is also one the fake answers to (browser-guard.ts). */
  host?: string;
  /** The bot's @username without "@". Default "orderbot_test_bot". */
  botUsername?: string;
  /** Default "OrderBot". */
  botName?: string;
  /** Privacy mode off: the bot sees every group message. Default false (Telegram's default). */
  canReadAllGroupMessages?: boolean;
  /** Seed for fault rates (same seed, same pattern). Default 1. */
  seed?: number;
  /** The first update_id. Default 100 000 001. */
  firstUpdateId?: number;
  webhook?: WebhookOptions;
  /** How long a callback query can still be answered. Default 15 000 ms. */
  callbackQueryTimeoutMs?: number;
  /** How long the user waits for answerPreCheckoutQuery. Default 10 000 ms (Telegram's 10 s). */
  preCheckoutTimeoutMs?: number;
  /** Flood control: 429 when the bot sends too fast. Off by default; `true` uses Telegram-like limits. */
  floodLimits?: FloodLimits | true;
  /** A second setWebhook with a URL within a second gets 429 (retry after 1), as on Telegram. Default true. */
  setWebhookRateLimit?: boolean;
  /**
   * Serve the control API under /_kit (create users, act as them, read chats) and the web client
   * at the root URL. Default false.
   */
  controlApi?: boolean;
  /** Where to report bugs of the fake itself (an exception inside a method). Default console.error. */
  onInternalError?: (error: unknown, method: string) => void;
}

export const DEFAULT_TOKEN = "8000000001:TEST-orderbot-fake-token";

export class FakeTelegram {
  readonly token: string;
  /** What grammY needs: `new Bot(token, { client: { apiRoot: tg.apiRoot } })`. */
  readonly apiRoot: string;
  /** The API base for this token: `${apiRoot}/bot${token}`. */
  readonly url: string;
  readonly faults: Faults;
  private readonly recorder: Recorder;
  private readonly users = new Map<number, SimulatedUser>();

  constructor(
    private readonly ctx: KitContext,
    private readonly server: FastifyInstance,
    private readonly deps: DispatchDeps,
    apiRoot: string,
  ) {
    this.token = ctx.state.bot.token;
    this.apiRoot = apiRoot;
    this.url = `${apiRoot}/bot${this.token}`;
    this.faults = deps.faults;
    this.recorder = deps.recorder;
  }

  /** The bot as getMe returns it; pass as grammY's `botInfo` to skip the getMe call. */
  get botInfo(): UserFromGetMe {
    return getMeResult(this.ctx.state);
  }

  createUser(options: CreateUserOptions = {}): SimulatedUser {
    const { state } = this.ctx;
    const id = options.id ?? state.allocateUserId();
    if (state.users.has(id) || id === state.bot.id)
      throw new FakeTelegramError(`user ${id} already exists`);
    const firstName = options.firstName ?? `User${String(id).slice(-4)}`;
    const user = {
      id,
      is_bot: false as const,
      first_name: firstName,
      ...(options.lastName ? { last_name: options.lastName } : {}),
      ...(options.username ? { username: options.username } : {}),
      ...(options.languageCode ? { language_code: options.languageCode } : {}),
      ...(options.isPremium ? { is_premium: true as const } : {}),
    };
    state.users.set(id, { user, startedBot: false, blockedBot: false });
    state.addChat({
      id,
      type: "private",
      first_name: firstName,
      ...(options.lastName ? { last_name: options.lastName } : {}),
      ...(options.username ? { username: options.username } : {}),
    });
    const simulated = new SimulatedUser(this.ctx, user);
    this.users.set(id, simulated);
    return simulated;
  }

  createGroup(options: CreateGroupOptions): SimulatedGroup {
    return createGroupChat(this.ctx, options);
  }

  /** A user created earlier, by id. */
  user(id: number): SimulatedUser | undefined {
    return this.users.get(id);
  }

  /** What the chat shows now: its messages with edits applied, keyboards, and its history. */
  chat(ref: ChatRef): ChatView {
    return this.ctx.state.view(chatIdOf(ref));
  }

  /** Resolves with the next bot message in the chat matching `match` (see WaitForMessageOptions). */
  waitForMessage(
    ref: ChatRef,
    match?: MessageMatch,
    options?: WaitForMessageOptions,
  ): Promise<TgMessage> {
    return waitForMessage(this.ctx.state, chatIdOf(ref), match, options);
  }

  /** Every Bot API call so far, in order. */
  get calls(): readonly RecordedCall[] {
    return this.recorder.calls;
  }

  callsTo(method: string): RecordedCall[] {
    return this.recorder.callsTo(method);
  }

  /** Resolves with the first call of `method` (made already or coming) that matches. */
  waitForCall(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    options?: { timeoutMs?: number; afterSeq?: number },
  ): Promise<RecordedCall> {
    return this.recorder.waitForCall(method, predicate, options);
  }

  /** Sending calls per calendar second, for a chat or (no chat) for the whole bot. */
  callsPerSecond(ref?: ChatRef, filter?: PacingFilter): Pacing["perSecond"] {
    return this.pacing(ref, filter).perSecond;
  }

  /** Pacing of sending calls: per-second counts and the busiest 1 s and 60 s windows. */
  pacing(ref?: ChatRef, filter?: PacingFilter): Pacing {
    return this.recorder.pacing(ref === undefined ? undefined : chatIdOf(ref), filter);
  }

  /** Every update ever created, with its delivery attempts and status (the delivery log). */
  get deliveries(): readonly QueuedUpdate[] {
    return this.ctx.queue.log;
  }

  delivery(updateId: number): QueuedUpdate | undefined {
    return this.ctx.queue.find(updateId);
  }

  /** Updates the bot has not got yet. */
  get pendingUpdates(): QueuedUpdate[] {
    return this.ctx.queue.pending;
  }

  /** Points webhook delivery somewhere without the bot calling setWebhook (not recorded). */
  setWebhook(config: { url: string; secretToken?: string; maxConnections?: number }): void {
    const full: WebhookConfig = { url: config.url, maxConnections: config.maxConnections ?? 40 };
    if (config.secretToken) full.secretToken = config.secretToken;
    this.ctx.poller.abort();
    this.ctx.webhook.set(full);
  }

  webhookInfo(): WebhookInfo {
    return getWebhookInfo(this.ctx, new Args({}), {
      signal: new AbortController().signal,
    }) as WebhookInfo;
  }

  /** Payments made so far (refunded ones carry refundedAt). */
  get charges(): ChargeRecord[] {
    return [...this.ctx.state.charges.values()];
  }

  /** The bot's Stars transactions, oldest first, as getStarTransactions lists them (not recorded). */
  get starTransactions(): StarTransaction[] {
    const { state } = this.ctx;
    return state.starLedger.map((entry) => starTransactionOf(state, entry));
  }

  /**
   * A Stars charge that Telegram took but the bot never heard of: it joins the ledger, and no
   * update is delivered (a successful_payment lost for good, or one meant for another database).
   */
  seedStarCharge(options: { user: ChatRef; amount: number; payload?: string }): ChargeRecord {
    const { state } = this.ctx;
    const userId = chatIdOf(options.user);
    if (!state.users.has(userId)) throw new FakeTelegramError(`no user ${userId}`);
    if (!Number.isInteger(options.amount) || options.amount <= 0)
      throw new FakeTelegramError("a Stars amount is a positive integer");
    const charge: ChargeRecord = {
      chargeId: uniqueChargeId(state),
      providerChargeId: "",
      userId,
      chatId: userId,
      currency: "XTR",
      totalAmount: options.amount,
      payload: options.payload ?? "unknown",
      paidAt: Date.now(),
    };
    recordCharge(state, charge);
    return structuredClone(charge);
  }

  /**
   * Refunds a Stars charge as Telegram support would, without the bot: the ledger shows the
   * refund and a refunded_payment service message reaches the payer's chat.
   */
  refundFromOutside(chargeId: string): ChargeRecord {
    return refundFromOutside(this.ctx, chargeId);
  }

  /** Calls a method in-process, as the bot would over HTTP (recorded too). */
  async call(method: string, params: Record<string, unknown> = {}): Promise<Envelope> {
    const { body } = await dispatch(
      this.deps,
      method,
      params,
      "http",
      new AbortController().signal,
    );
    return body;
  }

  async close(): Promise<void> {
    this.ctx.webhook.close();
    this.ctx.poller.abort();
    await this.server.close();
  }
}

export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = options.token ?? DEFAULT_TOKEN;
  const botId = botIdOf(token);
  const state = new TelegramState({
    id: botId,
    token,
    username: options.botUsername ?? "orderbot_test_bot",
    firstName: options.botName ?? "OrderBot",
    canJoinGroups: true,
    canReadAllGroupMessages: options.canReadAllGroupMessages ?? false,
  });
  const faults = new Faults(seededRandom(options.seed ?? 1));
  const recorder = new Recorder();
  const queue = new UpdateQueue(options.firstUpdateId ?? 100_000_001);
  const onInternalError =
    options.onInternalError ??
    ((error: unknown, method: string) => console.error(`fake Telegram: ${method} failed`, error));
  const deps = { faults, recorder, onInternalError } as DispatchDeps;
  const webhook = new WebhookDelivery(
    queue,
    faults,
    options.webhook ?? {},
    async (method, params) => {
      await dispatch(deps, method, params, "webhook-reply", new AbortController().signal);
    },
  );
  const ctx: KitContext = {
    state,
    queue,
    webhook,
    poller: new LongPoller(queue, faults),
    settings: {
      callbackQueryTimeoutMs: options.callbackQueryTimeoutMs ?? 15_000,
      preCheckoutTimeoutMs: options.preCheckoutTimeoutMs ?? 10_000,
      setWebhookRateLimit: options.setWebhookRateLimit ?? true,
    },
    flood: options.floodLimits ? new FloodControl(options.floodLimits) : undefined,
    lastSetWebhookAt: 0,
  };
  deps.ctx = ctx;
  const holder: { kit?: FakeTelegram } = {};
  const host = options.host ?? "127.0.0.1";
  const server = buildServer({
    token,
    allowedHosts: allowedHostsFor(host),
    dispatch: (method, fields, signal) => dispatch(deps, method, fields, "http", signal),
    download: (filePath) => state.documents.download(filePath),
    ...(options.controlApi ? { routes: controlAndClient(ctx, () => holder.kit!) } : {}),
  });
  await server.listen({ port: options.port ?? 0, host });
  const { port } = server.server.address() as AddressInfo;
  const shownHost =
    host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  holder.kit = new FakeTelegram(ctx, server, deps, `http://${shownHost}:${port}`);
  return holder.kit;
}

function botIdOf(token: string): number {
  const botId = Number(/^(\d+):/.exec(token)?.[1]);
  if (!Number.isSafeInteger(botId) || botId <= 0) {
    throw new FakeTelegramError(
      `a bot token starts with the bot's numeric id and ":", e.g. ${DEFAULT_TOKEN}`,
    );
  }
  return botId;
}

function controlAndClient(
  ctx: KitContext,
  kit: () => FakeTelegram,
): (app: FastifyInstance) => void {
  return (app) => {
    controlRoutes(kit)(app);
    webClientRoutes(ctx, kit)(app);
  };
}
