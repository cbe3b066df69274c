## Notices the worker sends customers (rendered when sent; payment-received is in payments.ftl)

order-expired = Your reservation { $id } has expired and its items are back on sale. Nothing was charged. Order again from /catalog.
order-refunded = Order { $id } is refunded: { $amount } goes back to you.
payment-refunded =
    { $hasOrder ->
        [yes] Your payment of { $amount } for order { $id } could not be applied ({ $reason }). It is refunded in full.
       *[no] Your payment of { $amount } could not be applied ({ $reason }). It is refunded in full.
    }
support-answer =
    The shop's answer to your question #{ $requestId }:
    { $text }
refund-reason-late-out-of-stock = the order had expired and its items were sold out
refund-reason-already-paid = the order was already paid
refund-reason-amount-mismatch = the amount did not match the order
refund-reason-not-yours = the order belongs to someone else
refund-reason-unknown-order = the order is unknown
refund-reason-operator = the shop refunded the order
refund-reason-duplicate = the payment was a duplicate
order-card =
    Order { $id }: { $status }.
    Its items, and what happens next, are under /orders.
