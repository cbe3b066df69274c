## Orders

order-summary =
    Order { $id }
    { $items }
    Total: { $total }
    Status: { $status }
order-reserved-until = Held for you for { $left }, until { $expires }. Pay before then, or the items go back on sale.
order-item = • { $title } × { $qty }: { $amount }
btn-pay = Pay { $total }
btn-cancel = Cancel order
order-busy = Still processing your last request…
unavailable = Temporarily unavailable; nothing was reserved or charged. Please try again in a moment.
unavailable-nothing-changed = Temporarily unavailable; nothing was changed. Please try again in a moment.
out-of-stock = Sorry, not enough in stock: { $items }.
out-of-stock-item = { $title } (only { $available } left)
order-limit = You already have { $open ->
        [one] 1 open order
       *[other] { $open } open orders
    }, the most allowed. Pay for or cancel one first.
order-invalid = That order could not be placed. Please pick the product again from /catalog.
order-not-found = That order does not exist.
order-unknown = You have no order with that number.
order-link-unknown = That payment link is not for an order of yours: only whoever placed an order can pay it. To buy the same, pick it from /catalog.
order-amount-out-of-range = This order's total, { $total }, is outside what one invoice can ask ({ $min } to { $max }). Nothing was reserved; please change the quantity.
order-currency-unsupported = This product cannot be paid for at the moment. Nothing was reserved.
order-cancelled = Order { $id } is cancelled and its items are back on sale.
order-cancel-closed = Order { $id } is { $status }, so it can no longer be cancelled. If something is wrong, press Contact the shop in the menu (/help).
order-cancel-expired = Order { $id } had already expired; nothing was charged and its items are back on sale.
orders-title = Your orders:
orders-empty = You have no orders yet. Start with /catalog.
orders-line = { $id } · { $status } · { $total } · { $date }
status-RESERVED = awaiting payment
status-PAYING = payment in progress
status-PAID = paid
status-PROCESSING = being prepared
status-SHIPPED = shipped
status-DELIVERED = delivered
status-CANCELLED = cancelled
status-EXPIRED = expired
status-REFUNDED = refunded
