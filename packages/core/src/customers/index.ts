// @orderbot/core/customers: customers: languages, support requests, their orders' messages.
export {
  MAX_SUPPORT_TEXT,
  supportRequestKey,
  type AnswerSupportRequestInput,
  type AnswerSupportRequestResult,
  type OpenSupportRequestInput,
  type OpenSupportRequestResult,
  type SupportRequests,
  type SupportTopic,
} from "./support-requests.ts";
export { MAX_OPEN_SUPPORT_REQUESTS } from "./open-requests.ts";
export {
  CARD_WAY_BACK,
  createOrderMessages,
  DELETABLE_FOR_MS,
  INVOICE_CLAIM_MS,
  type InvoiceClaim,
  type OrderMessageIds,
  type OrderMessages,
} from "./order-messages.ts";
// Per-user language choices, cached in Redis so that the bot's handlers never touch Redis.
export {
  createLanguagePreferences,
  type LanguagePreferences,
  type LanguagePreferencesDeps,
} from "./language-preferences.ts";
