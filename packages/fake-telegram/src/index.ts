// @orderbot/fake-telegram: a fake Telegram Bot API server with simulated users. See README.md.
export {
  startFakeTelegram,
  FakeTelegram,
  DEFAULT_TOKEN,
  type FakeTelegramOptions,
} from "./fake-telegram.ts";
export {
  SimulatedUser,
  type CreateUserOptions,
  type SentMessage,
  type ButtonPress,
  type PressOptions,
  type Where,
} from "./users.ts";
export { MAX_DOWNLOAD_BYTES, type TgFile } from "./documents.ts";
export type { UserAction } from "./actions.ts";
export { SimulatedGroup, type CreateGroupOptions, type Person } from "./groups.ts";
export type { PaymentResult, PayOptions } from "./pay.ts";
export { DEFAULT_ADDRESS, defaultBuyer, type BuyerDetails } from "./shipping-step.ts";
export type { ChatView } from "./chat-view.ts";
export type { MessageMatch, WaitForMessageOptions } from "./waits.ts";
export { messageText } from "./waits.ts";
export type { MethodFault, DeliveryFaults, FaultHandle, Faults, HoldHandle } from "./faults.ts";
export { seededRandom } from "./faults.ts";
export type { FloodLimits } from "./flood.ts";
export type { RecordedCall, Pacing, PacingFilter } from "./recorder.ts";
export { SENDING_METHODS, maxInWindow } from "./recorder.ts";
export type {
  DeliveryAttempt,
  DeliveryOutcome,
  DeliveryStatus,
  QueuedUpdate,
} from "./delivery/queue.ts";
export type { WebhookOptions } from "./delivery/webhook.ts";
export type {
  CallbackAnswer,
  ChargeRecord,
  ChatEvent,
  MemberStatus,
  StarLedgerEntry,
} from "./state.ts";
export type { TgMessage, TgUpdate, ChatRef } from "./types.ts";
export {
  BotApiError,
  TelegramErrors,
  FakeTelegramError,
  ButtonNotFoundError,
  WaitTimeoutError,
} from "./errors.ts";
