// @orderbot/core/fulfilment: operators moving paid orders on, the order timeline and status notices.
// Operators moving paid orders on, the order timeline and the customer's status notices.
export { createFulfilmentService, type FulfilmentService } from "./service.ts";
export {
  FULFILMENT_STEPS,
  type AdvanceOrderInput,
  type AdvanceOrderResult,
  type FulfilmentStep,
} from "./advance-order.ts";
export { TIMELINE_NOTE_MAX, type TimelineEntryView } from "./timeline.ts";
export { statusNoticeKey } from "./status-notice.ts";
export { nextFulfilmentSteps } from "./next-steps.ts";
