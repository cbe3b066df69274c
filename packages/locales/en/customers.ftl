## Customers: start, help, language

welcome =
    Welcome, { $name }!
    Browse what is in stock with /catalog. Your orders are under /orders.
help =
    /catalog: products, prices and stock
    /orders: your orders and where they stand
    /language: switch between English and 中文
    /paysupport: help with a payment, from the shop's operators
    /terms: the shop's terms of sale
    Pick a product, choose how many, press Order: the items are held for you until you pay or the reservation runs out.
language-choose = Choose your language:
language-set = Language set to English.
unknown-message = I did not understand that. Try /catalog or /help.
contact-not-needed = Thanks, but the shop does not need your phone number, and it was not stored.
