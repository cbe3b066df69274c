## Fulfilment: operators moving paid orders on, customers told, and the order's timeline

# To the customer (sent by the worker), once per order and state.
order-status =
    { $step ->
        [PROCESSING] Your order { $id } is being prepared. We will tell you when it ships.
        [SHIPPED] Your order { $id } has shipped.{ $hasNote ->
            [yes] {"\u000A"}Tracking: { $note }
           *[no] {""}
        }{"\u000A"}We will tell you when it is delivered.
       *[DELIVERED] Your order { $id } is delivered. Thank you for shopping with us!
    }

# The buttons under a paid order's notice in the operator group.
btn-fulfil-processing = 📦 Start preparing
btn-fulfil-shipped = 🚚 Mark shipped
btn-fulfil-delivered = ✅ Mark delivered

# Operators' commands and answers.
op-fulfil-usage-process = Usage: /process ORDER_ID
op-fulfil-usage-ship = Usage: /ship ORDER_ID [tracking note]
op-fulfil-usage-deliver = Usage: /deliver ORDER_ID
op-fulfil-ok =
    { $step ->
        [PROCESSING] Order { $id } is being prepared ({ $who }). The customer has been told.
        [SHIPPED] Order { $id } is shipped ({ $who }){ $hasNote ->
            [yes] , tracking: { $note }
           *[no] {""}
        }. The customer has been told.
       *[DELIVERED] Order { $id } is delivered ({ $who }). The customer has been told.
    }
op-fulfil-already = Already done: order { $id } is { $status } since { $when }, by { $who }. Nothing was changed.
op-fulfil-already-unknown = Already done: order { $id } is { $status }. Nothing was changed.
op-fulfil-not-paid = Order { $id } is { $status }: only a paid order can be moved on.
op-fulfil-note-too-long = A tracking note can be at most { $max ->
        [one] 1 character
       *[other] { $max } characters
    }. Nothing was changed.
op-fulfil-someone = another operator
op-ship-note-prompt =
    Order { $id } ships. Reply to this message with the tracking note for the customer, or "-" for none.
    🚚 { $id }
op-reply-owed-ship = To ship order { $id } with this note, reply to my message that asks for it, or send /ship { $id } NOTE. Nothing was changed.

# Refunds once the goods went out.
op-refund-reason-required = Order { $id } is { $status }: the goods went out, so a refund needs a reason, which is kept in the order's history. Send /refund { $id } REASON. Nothing was changed.
op-refund-shipped-ok = Order { $id } stays { $status }; its payment is being returned to the customer. Reason recorded: { $reason }

# The order's history, on the order card, in /orders and in the group's /order.
order-timeline-title = History:
order-timeline-move = { $when } · { $status }{ $hasNote ->
        [yes] {" "}({ $note })
       *[no] {""}
    }
order-timeline-refund = { $when } · refunded{ $hasNote ->
        [yes] {" "}({ $note })
       *[no] {""}
    }
