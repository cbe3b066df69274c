## Notices the worker sends the operator group

operator-order-paid =
    { $hasAmount ->
        [yes] Order { $id } was paid: { $amount }.
       *[no] Order { $id } was paid.
    }{ $hasItems ->
        [yes] {"\u000A"}{ $items }
       *[no] {""}
    }{ $hasCustomer ->
        [yes] {"\u000A"}Customer: { $customer }
       *[no] {""}
    }
operator-paid-item = • { $title } × { $quantity }: { $amount }
operator-paid-more = • … and { $count } more
operator-paid-shipping = Shipping: { $option } ({ $amount })
operator-paid-to = Deliver to: { $to }
operator-paid-phone = Phone: { $phone }
operator-paid-email = E-mail: { $email }
operator-paid-codes = 🔑 { $count }: { $codes }
operator-refund-needed =
    { $automatic ->
        [yes] Refund under way: { $amount }{ $hasOrder ->
            [yes] , order { $id }
           *[no] {""}
        } ({ $reason }). Telegram Stars go back to the buyer automatically; nothing to do.
       *[no] Refund to make by hand: { $amount }{ $hasOrder ->
            [yes] , order { $id }
           *[no] {""}
        } ({ $reason }). Refund it with the payment provider, then mark it with /refunded.
    }
operator-ledger-finding = Stars ledger check: { $finding }. Charge { $charge }{ $telegramAmount }{ $shopAmount }. See /refunds.
operator-ledger-telegram = , Telegram: { $amount }
operator-ledger-shop = , shop: { $amount }
finding-charge-missing = Telegram took a payment the shop never recorded; it is recorded now, for the order its invoice names (refunded automatically if that order cannot be honoured, or if it names none)
finding-payment-unknown-to-telegram = the shop recorded a payment that Telegram does not list
finding-refund-only-in-telegram = Telegram refunded a payment the shop had as paid; recorded as refunded
finding-refund-only-in-shop = the shop has a refund that Telegram does not list
finding-amount-mismatch = the amount Telegram took differs from the shop's record
finding-ledger-out-of-order = Telegram's transaction list changed behind what was read (its dates go back); reading stopped there until someone checks it
operator-refunded-outside =
    Telegram reports a refund the shop did not make: { $amount }, charge { $charge }. { $outcome ->
        [no-order] The shop had no record of this charge; it is recorded as refunded.
        [refunded] Order { $id } is now refunded and its items are back on sale.
       *[kept] Order { $id } stays { $status }.
    }
operator-low-stock =
    { $out ->
        [yes] Out of stock: { $title } ({ $sku }).
       *[no] Low stock: { $title } ({ $sku }), { $stock } left (alert at { $threshold }).
    }
operator-support-request =
    Question #{ $requestId } from { $customer }{ $topic ->
        [paysupport] {" "}(about a payment)
       *[other] {""}
    }
    Recent orders:
    { $orders }
    Message: { $text }
    Reply to this message to answer them.
operator-none = (none)
operator-dead-letter = A message could not be delivered after { $attempts ->
        [one] 1 attempt
       *[other] { $attempts } attempts
    } and was given up (#{ $id }): { $error }
operator-daily-report =
    Daily report { $day } ({ $zone })
    Orders placed: { $placed } · expired: { $expired } · cancelled: { $cancelled }
    Revenue: { $revenue }
    Refunded: { $refunded } · refunds under way: { $refundsPending } · undeliverable messages: { $deadLetters }
    Low stock: { $lowStock }
