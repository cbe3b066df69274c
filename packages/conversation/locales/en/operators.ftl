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
op-price-usage = Usage: /price SKU AMOUNT, for example /price TEA-LONGJING 25. Stars are whole numbers (25, not 18.50); other currencies take cents (18.50).
op-price-ok = { $sku }: price { $before } → { $after }.
op-price-out-of-range = { $sku }: { $price } is outside what one invoice can ask ({ $min } to { $max }). The price was not changed.
op-price-currency-unsupported = { $sku } is priced in { $currency }, which the shop cannot invoice (it can: { $supported }). The price was not changed.
op-support-answered = Sent to the customer as the answer to request #{ $id }.
op-support-unknown = There is no support request #{ $id }; nothing was sent.
op-support-invalid = That answer could not be sent: write some text, at most 3500 characters.
op-orders-title = Orders{ $status }:
op-orders-empty = No orders.
op-orders-line = { $id } · { $status } · { $total } · { $date }
op-orders-usage = Which orders? Write /orders alone for the latest, or with a state: { $statuses }.
op-order-usage = Usage: /order ORDER_ID
op-order-detail =
    Order { $id } · { $status }
    Customer: { $customer }
    { $items }
    Total: { $total }
    Placed: { $created }{ $expires }
op-refund-usage = Usage: /refund ORDER_ID [reason] (a reason is needed once the order has shipped)
op-refund-ok = Order { $id } is refunded; the customer's payment is being returned.
op-refund-not-paid = Order { $id } is { $status }: only paid orders can be refunded.
op-busy = Someone else is working on this right now. Please try again in a moment.
op-unavailable = Temporarily unavailable; nothing was changed. Please try again in a moment.
op-invalid = That was not accepted: { $problems }
op-report =
    Report for { $day } ({ $zone })
    Orders placed: { $placed } · paid: { $paid } · cancelled: { $cancelled } · expired: { $expired }
    Revenue: { $revenue }
    Refunded: { $refunded } · refunds under way: { $refundsPending }
    Low stock: { $lowStock }
op-settings-title = Group settings:
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
op-reply-owed-refund = To mark the refund { $charge } as made by hand with this note, reply to my message that asks for it, or send /refunded { $charge } NOTE. Nothing was changed.
op-refunded-usage = Usage: /refunded CHARGE_ID [note]
op-refunded-ok = Marked as refunded by hand: { $charge }.
op-refunded-too-long = The note is too long: { $max ->
        [one] 1 character
       *[other] { $max } characters
    } at most. Nothing was changed.
op-findings-title = Stars ledger findings (Telegram's record and the shop's differ): { $total }
op-findings-empty = Stars ledger: no open findings (Telegram's record and the shop's agree as far as checked).
op-finding-line = { $n }. { $kind } · charge { $charge } · Telegram { $telegram } · shop { $shop } · { $age }
op-finding-charge-missing = charge the shop never recorded (recorded late for its order, or refunded automatically)
op-finding-payment-unknown-to-telegram = payment Telegram does not list
op-finding-refund-only-in-telegram = refund made outside the bot (recorded)
op-finding-refund-only-in-shop = refund Telegram does not list
op-finding-amount-mismatch = amounts differ
op-finding-ledger-out-of-order = Telegram's list changed behind the reader (reading stopped)
btn-finding-resolve = ✓ Resolved { $n }
op-finding-resolved = Finding resolved: { $charge }. Your name and the time are recorded.
op-finding-already = This finding was resolved already: { $charge }.
op-finding-unknown = There is no such finding.
