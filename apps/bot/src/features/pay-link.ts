// The deep link an invoice carries as its start_parameter: a forwarded copy of the invoice shows
// a button to t.me/<bot>?start=pay-<order> instead of Pay, and /start pay-<order> opens the order.
// Deep-link parameters are 1-64 characters of A-Z a-z 0-9 _ -; public order ids fit.

const PREFIX = "pay-";

export function payStartParameter(orderId: string): string {
  return `${PREFIX}${orderId}`;
}

/** The order id in a /start parameter, or null when it is not a pay link. */
export function orderIdOfStartParameter(parameter: string): string | null {
  const match = /^pay-([A-Za-z0-9]{1,60})$/.exec(parameter.trim());
  return match ? match[1]! : null;
}
