## The cart

cart-title = Your cart:
cart-empty = Your cart is empty. Pick products from the catalog and press “Add to cart”.
cart-line = • { $title } × { $qty }: { $amount }
cart-line-short = (only { $available } left)
cart-line-gone = (no longer on sale)
cart-total = Total: { $total } ({ $units ->
        [one] 1 item
       *[other] { $units } items
    })
cart-not-reserved = Nothing is held for you until you check out.
cart-added = Added to your cart: { $title }, now { $qty }. The cart has { $units ->
        [one] 1 item
       *[other] { $units } items
    }.
cart-emptied = Your cart is empty now.
cart-changed = Your cart changed since this message was shown. Here it is now: check it and press Checkout again. Nothing was reserved.
cart-short = Not enough in stock: { $items }. Nothing was reserved, and your cart is unchanged: lower those lines or remove them, then check out again.
cart-short-alert = Not enough in stock for some lines: the cart below says which. Nothing was reserved.
cart-short-item = { $title } (only { $available } left)
cart-short-none = { $title } (sold out)
cart-too-many-lines = A cart holds at most { $max ->
        [one] 1 product
       *[other] { $max } different products
    } (one order). Check out these first, or remove one.
cart-too-many-units = At most { $max } of one product per order.
cart-amount-out-of-range = This cart's total, { $total }, is more than one order can be ({ $max }). Nothing was reserved; please remove something.
btn-cart = 🛒 Cart ({ $units })
btn-cart-add = 🛒 Add { $qty } to cart
btn-cart-empty = 🗑 Empty the cart
btn-checkout = ✅ Checkout · { $total }
