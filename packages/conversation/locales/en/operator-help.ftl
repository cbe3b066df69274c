## The operator group's /help

op-help =
    What you can do in this group:
    /orders: the latest orders (/orders paid, /orders reserved: one state only)
    /order ID: one order, its items and its customer
    /refund ID: refund a paid order
    /refunds: refunds under way and payments to check
    /products: the catalog, with prices and stock
    /stock SKU +5, -2 or =10: add, remove or set stock
    /codes SKU: a digital product's pool of codes (add codes on the lines after it, or send a .txt/.csv file with it as the caption)
    /import: a catalog .csv sent with /import as its caption: a dry run, then an Import button (docs/catalog.md)
    /kind SKU physical|digital [PRICE]: shipped goods (paid through the provider, in its currency) or digital goods (sold for Stars)
    /price SKU 25: set a price in the product's currency (whole Stars, or 18.50 for shipped goods)
    /promo: promo codes (/promo add SALE10 10% uses=50, /promo off SALE10)
    /report: today's figures
    /settings: notices, low-stock alerts and this group's language
    Customers' questions arrive here: reply to one to answer the customer.
op-order-held-until = { " " }· held until { $expires }
op-refund-already-done = Order { $id } was refunded already; nothing more was done.
op-unknown-sku-suggest = There is no product with SKU { $sku }. Did you mean { $suggestion }?
