// @orderbot/conversation: everything a person reads in Telegram. The Fluent texts (locales/), the
// callback-data codecs of every button, the buttons the worker's notices carry, the rendering of
// the outbox's notices in each recipient's language, and each customer's language.
export { formatMoney } from "./money/format-money.ts";
export { problemsText, problemText } from "./refusals/problems.ts";
export {
  isLocale,
  localeFromLanguageCode,
  LOCALES,
  LOCALES_DIR,
  type Locale,
} from "./languages.ts";
export {
  createLanguagePreferences,
  type LanguagePreferences,
  type LanguagePreferencesDeps,
} from "./language-preferences.ts";
export { recipientLanguages } from "./recipient-languages.ts";
export {
  createReplyPrompts,
  type OwedReply,
  type ReplyPrompts,
  type ReplyPromptsDeps,
} from "./reply-prompts.ts";
export {
  callbacks,
  CALLBACK_DATA_MAX_BYTES,
  fitSearchQuery,
  SEARCH_QUERY_MAX_BYTES,
  MENU_ACTIONS,
  SETTING_KEYS,
  type CallbackCodec,
  type SettingKey,
} from "./callbacks/index.ts";
export { promoCallbacks } from "./callbacks/promo.ts";
export {
  CARD_WAY_BACK,
  fulfilmentButtons,
  showPhoneButton,
  type FulfilmentButton,
  type NoticeButton,
} from "./notices/buttons.ts";
export {
  CARD_TEMPLATE,
  hasTemplate,
  ORDER_TEMPLATES,
  renderNotice,
  UnknownTemplateError,
  type NoticeFacts,
  type Params,
  type RenderedNotice,
} from "./notices/render.ts";
export {
  createOrderMessages,
  type OrderMessageIds,
  type OrderMessages,
  type OrderMessagesDeps,
} from "./order-messages/order-messages.ts";
export {
  DELETABLE_FOR_MS,
  INVOICE_CLAIM_MS,
  type InvoiceClaim,
} from "./order-messages/invoice-claim.ts";
