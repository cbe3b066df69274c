// @orderbot/core/customers: customers' support requests.
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
