## Customers: start, help, language

welcome =
    Welcome, { $name }!
    Browse what is in stock with /catalog. Your orders are under /orders.
help =
    /catalog: products, prices and stock
    /orders: your orders and where they stand
    /language: switch between English and 中文
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
op-stock-usage = Usage: /stock SKU +N | -N | =N
op-stock-ok = { $sku }: stock { $before } → { $after }.
op-stock-replayed = { $sku }: { $change } was applied already (this command came again); stock now { $now }.
op-stock-short = { $sku }: cannot remove { $requested }; only { $available } are unreserved.
op-unknown-sku = There is no product with SKU { $sku }.
op-price-usage = Usage: /price SKU AMOUNT
op-price-ok = { $sku }: price { $before } → { $after }.
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
