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
precheckout-not-found = This invoice is not for an order of yours. Nothing was charged.
precheckout-busy = The order is being changed right now. Nothing was charged; please try again in a moment.
precheckout-unavailable = Payments are temporarily unavailable. Nothing was charged; please try again shortly.
precheckout-replaced = A newer invoice for this order was sent: please pay that one. Nothing was charged.
payment-received =
    Payment received: order { $id } is paid. Thank you!
    { $hasCodes ->
        [yes] Your codes come in the next message, and stay with the order under My orders.
       *[no] What happens next: the shop prepares your order and tells you here at each step, usually within a working day. Your orders are under My orders.
    }
payment-refund-pending = We received your payment for order { $id }, but the order could not be fulfilled. Your payment will be refunded in full.
