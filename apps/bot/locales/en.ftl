## Customers: start, help, language

welcome =
    Welcome, { $name }!
    Browse what is in stock with /catalog. Your orders are under /orders.
help =
    /catalog: products, prices and stock
    /orders: your orders and where they stand
    /language: switch between English and 中文
    /paysupport: help with a payment, from the shop's operators
    /terms: the shop's terms of sale
    Pick a product, choose how many, press Order: the items are held for you until you pay or the reservation runs out.
language-choose = Choose your language:
language-set = Language set to English.
unknown-message = I did not understand that. Try /catalog or /help.
contact-not-needed = Thanks, but the shop does not need your phone number, and it was not stored.

## Catalog and product card

catalog-title = Catalog, page { $page } of { $pages }:
catalog-empty = Nothing is on sale right now. Please come back later.
catalog-line = { $title }: { $price } ({ $stock } left)
product-card =
    { $title }
    Price: { $price }
    In stock: { $stock }

    Quantity: { $qty }, total { $total }
product-gone = This product is no longer on sale.
btn-previous = ◀ Previous
btn-next = Next ▶
btn-back = ◀ Catalog
btn-order = Order { $qty } for { $total }

## Orders

order-summary =
    Order { $id }
    { $items }
    Total: { $total }
    Status: { $status }
order-reserved-until = Reserved for you until { $expires }. Pay before then, or the items go back on sale.
order-item = • { $title } × { $qty }: { $amount }
btn-pay = Pay { $total }
btn-cancel = Cancel order
order-busy = Still processing your last request…
unavailable = Temporarily unavailable; nothing was reserved or charged. Please try again in a moment.
unavailable-nothing-changed = Temporarily unavailable; nothing was changed. Please try again in a moment.
out-of-stock = Sorry, not enough in stock: { $items }.
out-of-stock-item = { $title } (only { $available } left)
order-limit = You already have { $open } open orders, the most allowed. Pay for or cancel one first.
order-invalid = That order could not be placed. Please pick the product again from /catalog.
order-not-found = That order does not exist.
order-not-yours = That order is not yours.
order-link-not-found = That payment link is for an order that does not exist.
order-link-not-yours = That payment link is for someone else's order, so it can only be paid by them. To buy the same, pick it from /catalog.
order-amount-out-of-range = This order's total, { $total }, is outside what one invoice can ask ({ $min } to { $max }). Nothing was reserved; please change the quantity.
order-currency-unsupported = This product cannot be paid for at the moment. Nothing was reserved.
order-cancelled = Order { $id } is cancelled and its items are back on sale.
order-cancel-closed = Order { $id } is { $status }, so it can no longer be cancelled. Please contact the shop if something is wrong.
order-cancel-expired = Order { $id } had already expired; nothing was charged and its items are back on sale.
orders-title = Your orders:
orders-empty = You have no orders yet. Start with /catalog.
orders-line = { $id } · { $status } · { $total } · { $date }
status-RESERVED = reserved, awaiting payment
status-PAYING = payment in progress
status-PAID = paid
status-FULFILLED = fulfilled
status-CANCELLED = cancelled
status-EXPIRED = expired
status-REFUNDED = refunded

## Payments

invoice-title = Order { $id }
pay-refused-cancelled = Order { $id } was cancelled, so it can no longer be paid. Place a new order from /catalog.
pay-refused-expired = Order { $id } has expired and its items went back on sale. Place a new order from /catalog.
pay-refused-paid = Order { $id } is already paid.
pay-invoice-sent = Invoice sent.
pay-invoice-refused = The shop could not create the invoice for order { $id }; nothing was charged. Please try again later, or ask for help with /paysupport.
precheckout-expired = This order has expired. Nothing was charged; please order again.
precheckout-cancelled = This order was cancelled. Nothing was charged.
precheckout-paid = This order is already paid. Nothing was charged.
precheckout-wrong-amount = The price of this order changed. Nothing was charged; please order again.
precheckout-not-yours = This invoice belongs to someone else. Nothing was charged.
precheckout-not-found = This order does not exist. Nothing was charged.
precheckout-busy = The order is being changed right now. Nothing was charged; please try again in a moment.
precheckout-unavailable = Payments are temporarily unavailable. Nothing was charged; please try again shortly.
payment-received = Payment received: order { $id } is paid. Thank you!
payment-refund-pending = We received your payment for order { $id }, but the order could not be fulfilled. Your payment will be refunded in full.

## Errors and limits

button-invalid = This button is no longer valid.
rate-limited = Too many requests. Please slow down.
error-generic = Something went wrong on our side. Please try again.

## Operator group

op-not-admin = Only this group's administrators can do that.
op-not-bound = This group is not the shop's operator group. An owner can bind it with /bind.
op-bind-not-owner = Only the shop's owners can bind a group.
op-bind-ok = This group is now the shop's operator group: paid orders and low-stock alerts will be posted here.
op-bind-elsewhere = Another group is configured as the operator group.
op-products-title = Products:
op-products-line = { $sku } · { $title } · { $price } · stock { $stock }{ $inactive }
op-inactive = { " " }(not on sale)
op-products-empty = No products yet.
op-products-page = Page { $page } of { $pages }
op-stock-usage = Usage: /stock SKU +N | -N | =N
op-stock-ok = { $sku }: stock { $before } → { $after }.
op-stock-replayed = { $sku }: { $change } was applied already (this command came again); stock now { $now }.
op-stock-short = { $sku }: cannot remove { $requested }; only { $available } are unreserved.
op-unknown-sku = There is no product with SKU { $sku }.
op-price-usage = Usage: /price SKU AMOUNT
op-price-ok = { $sku }: price { $before } → { $after }.
op-price-out-of-range = { $sku }: { $price } is outside what one invoice can ask ({ $min } to { $max }). The price was not changed.
op-price-currency-unsupported = { $sku } is priced in { $currency }, which the shop cannot invoice (it can: { $supported }). The price was not changed.
op-support-answered = Sent to the customer as the answer to request #{ $id }.
op-support-unknown = There is no support request #{ $id }; nothing was sent.
op-support-invalid = That answer could not be sent: write some text, at most 3500 characters.
op-orders-title = Orders{ $status }:
op-orders-empty = No orders.
op-orders-line = { $id } · { $status } · { $total } · { $date }
op-orders-usage = Usage: /orders [{ $statuses }]
op-order-usage = Usage: /order ORDER_ID
op-order-detail =
    Order { $id } · { $status }
    Customer: { $customer }
    { $items }
    Total: { $total }
    Placed: { $created } · expires: { $expires }
op-refund-usage = Usage: /refund ORDER_ID
op-refund-ok = Order { $id } is refunded; the customer's payment is being returned.
op-refund-not-paid = Order { $id } is { $status }: only paid orders can be refunded.
op-busy = Someone else is working on this right now. Please try again in a moment.
op-unavailable = Temporarily unavailable; nothing was changed. Please try again in a moment.
op-invalid = That was not accepted: { $problems }
op-report =
    Report for { $day }
    Orders placed: { $placed } · paid: { $paid } · cancelled: { $cancelled } · expired: { $expired }
    Revenue: { $revenue }
    Low stock: { $lowStock }
op-settings-title = Group settings (version { $version }):
op-setting-notifyPaidOrders = Paid-order notices
op-setting-lowStockThreshold = Low-stock alert at
op-setting-language = Language
op-setting-on = on
op-setting-off = off
btn-setting = { $label }: { $state }
op-settings-saved = Saved.
op-settings-conflict = Someone else changed the settings a moment ago; nothing was saved. Here are the current settings.
op-refunds-title = Refunds owed: { $total }
op-refunds-empty = No refunds owed: every charge is delivered or refunded.
op-refunds-line = { $n }. { $amount } · { $order } · { $age } · { $state }
op-refunds-order = order { $id }
op-refunds-no-order = no order
op-refunds-more = …and { $more } more.
op-refund-state-waiting = waiting for Telegram
op-refund-state-refused = refused by Telegram: { $error }
op-refund-state-by-hand = to refund by hand
op-age-minutes = { $n } min
op-age-hours = { $n } h
op-age-days = { $n } d
btn-refund-retry = ↻ Retry { $n }
btn-refund-mark = ✓ Refunded { $n }
op-refund-retry-ok = The refund is sent to Telegram again.
op-refund-retry-waiting = This refund is already on its way to Telegram.
op-refund-retry-not-stars = Only Stars refunds can be sent again. Refund this one with the payment provider, then mark it refunded.
op-refund-already = This payment was refunded already.
op-refund-not-owed = This payment pays for its order: nothing is owed.
op-refund-unknown = There is no such payment.
op-refund-note-prompt =
    Reply to this message with a note (or "-" for none) to mark this refund as made by hand. The same as a command: /refunded { $charge } note
    🧾 { $charge }
op-refunded-usage = Usage: /refunded CHARGE_ID [note]
op-refunded-ok = Marked as refunded by hand: { $charge }.
op-refunded-too-long = The note is too long: { $max } characters at most. Nothing was changed.
op-findings-title = Stars ledger findings (Telegram's record and the shop's differ): { $total }
op-findings-empty = Stars ledger: no open findings (Telegram's record and the shop's agree as far as checked).
op-finding-line = { $n }. { $kind } · charge { $charge } · Telegram { $telegram } · shop { $shop } · { $age }
op-finding-charge-missing = charge the shop never recorded (refunded automatically)
op-finding-payment-unknown-to-telegram = payment Telegram does not list
op-finding-refund-only-in-telegram = refund made outside the bot (recorded)
op-finding-refund-only-in-shop = refund Telegram does not list
op-finding-amount-mismatch = amounts differ
btn-finding-resolve = ✓ Resolved { $n }
op-finding-resolved = Finding resolved: { $charge }. Your name and the time are recorded.
op-finding-already = This finding was resolved already: { $charge }.
op-finding-unknown = There is no such finding.

## Payment support and terms

support-opened = Your request #{ $id } has reached the shop. An operator will answer you in this chat.
support-contact = You can also reach the shop at { $contact }.
support-add-details = To tell them more, send /paysupport followed by your message, for example: /paysupport order ABCD2345 was charged twice.
support-too-long = That message is too long for a support request: at most { $max } characters, please.
support-invalid = Your request could not be sent. Please try again with a shorter message.
terms-default =
    Terms of sale
    Prices are in the currency shown on each product. An order holds its items until you pay or the reservation runs out; an unpaid order is released and nothing is charged.
    Payments are taken by Telegram. If an order cannot be delivered after you paid (it expired, sold out, or was paid twice), it is refunded in full: Telegram Stars automatically, other currencies by the shop.
    For any problem with a payment, send /paysupport: your request goes to the shop's operators, who answer you here.

# Operators: who sees a customer's id, who may refund, /unbind
btn-show-customer = Show customer id
op-order-customer-id = Order { $id }: customer id { $customer }
op-refund-no-right = Refunds need an owner, or an admin with the "Add new admins" right. Nothing was changed.
op-unbind-not-owner = Only the shop's owners can unbind the operator group.
op-unbind-confirm = Unbind this group? Paid orders and low-stock alerts will no longer be posted here, and its settings are forgotten. Alerts already queued are still delivered.
btn-unbind = Yes, unbind
op-unbind-ok = This group is no longer the shop's operator group. An owner can bind it again with /bind.
