// @orderbot/core/customers: customers (recorded by any way in) and their support requests.
export { createCustomers, type Customers } from "./service.ts";
export {
  CUSTOMER_LANGUAGES,
  LAST_SEEN_RESOLUTION_MS,
  type CustomerLanguage,
  type CustomerView,
} from "./customer.ts";
export type { RecordCustomerInput, RecordCustomerResult } from "./record-customer.ts";
export type { CustomerChange } from "./customer-settings.ts";
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
