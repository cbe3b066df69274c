## Promo codes: the customer's side (features/promo.ts, format/promo.ts)

promo-prompt = Send your promo code as a reply to this message.
promo-applied = Code { $code } applied: { $amount } off. You pay { $total }.
promo-removed = The code is off your cart.
promo-cart-empty = Your cart is empty: add something first, then apply the code.
promo-refused = Code { $code } cannot be used: { $why } Nothing was reserved.
promo-refused-unknown = there is no such code.
promo-refused-inactive = it is no longer valid.
promo-refused-not-started = it is not valid yet.
promo-refused-expired = it has expired.
promo-refused-used-up = all its uses have been taken.
promo-refused-used-by-you = you have already used it as many times as it allows.
promo-refused-below-minimum = it needs a cart of at least { $min }.
promo-refused-currency = it is not for this cart's currency.
promo-refused-total-too-small = the total after it would be less than one payment can be.
promo-terms-percent = −{ $value }%
promo-terms-fixed = −{ $amount }
promo-line = Code { $code } ({ $terms }): −{ $amount }
promo-cart-payable = To pay: { $total }
promo-cart-problem = Code { $code }: { $why }
promo-invoice = { $terms } with code { $code } (−{ $amount })
btn-promo = 🏷 Promo code
btn-promo-remove = ✕ Code { $code }
refund-reason-late-promo-used-up = the order had expired and its promo code's uses were all taken

## Promo codes: the operator group (features/operator/promo-codes.ts)

op-promo-usage =
    /promo: every code with its uses left
    /promo add CODE 10%|5.00 uses=50 [per=1] [min=20.00] [from=YYYY-MM-DD] [until=YYYY-MM-DD]
    /promo off CODE: no new uses (orders that took one keep it)
op-promo-invalid = Not changed: { $problem }.
op-promo-list-title = Promo codes (uses left of total, per customer):
op-promo-list-empty = No promo codes yet. /promo add CODE 10% uses=50 creates one.
op-promo-line = { $code } { $terms }: { $remaining } of { $total } left, { $per } per customer{ $details }{ $state }
op-promo-from = from { $day }
op-promo-until = until { $day }
op-promo-min = at least { $min }
op-promo-inactive = , off
op-promo-details = {" "}({ $list })
op-promo-separator = {", "}
op-promo-created = Created: { $line }
op-promo-exists = A code { $code } exists already: nothing changed.
op-promo-off = Turned off: { $line }
op-promo-already-off = Already off: { $line }
op-promo-not-found = No code { $code }.
