// @orderbot/core/customers: support requests and the messages that show their orders.
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
  createOrderMessages,
  DELETABLE_FOR_MS,
  INVOICE_CLAIM_MS,
  type InvoiceClaim,
  type OrderMessageIds,
  type OrderMessages,
} from "./order-messages.ts";
