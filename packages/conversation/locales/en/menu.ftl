## The main menu, "My orders" and asking the shop

btn-menu-catalog = 🛍 Catalog
btn-menu-cart = 🛒 Cart
btn-menu-orders = 📦 My orders
btn-menu-help = ❓ Help
btn-menu-contact = ✉️ Contact the shop
btn-ask-shop = ✉️ Ask the shop
btn-my-orders = ◀ My orders
btn-open-order = { $id } · { $status } · { $total }
ask-prompt = Write your question in reply to this message: it goes to the shop's operators, who answer you here.
ask-sent = Your question #{ $id } has reached the shop. An operator will answer you in this chat.
ask-nothing = There is no message to pass on. Write your question in reply to this message instead.
order-next-reserved = Next: pay before the reservation runs out.
order-next-paid = Next: the shop prepares your order. You get a message here at each step.
order-next-closed = Nothing more to do for this order.
duration-under-a-minute = less than a minute
duration-minutes =
    { $n ->
        [one] 1 minute
       *[other] { $n } minutes
    }
duration-hours =
    { $n ->
        [one] 1 hour
       *[other] { $n } hours
    }
unknown-message-not-text = I can only read text messages. Use the buttons below, or write your question.

## Cards and invoices
pay-invoice-already = The invoice is already in the chat, just below the order.
