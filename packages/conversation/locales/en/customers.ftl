## Customers: start, help, language

welcome =
    Welcome, { $name }!
    Browse the catalog, put what you like in your cart and pay in the chat. Your orders and their progress are under My orders; a question goes straight to the shop.
help =
    /catalog: products, prices and stock
    /orders: your orders and where they stand
    /language: switch between English and 中文
    /paysupport: help with a payment, from the shop's operators
    /terms: the shop's terms of sale
    Pick a product, choose how many, press Order: the items are held for you until you pay or the reservation runs out.
    A question about anything else? Press Contact the shop, or just write it here.
language-choose = Choose your language:
language-set = Language set to English.
unknown-message = I did not understand that. Shall I pass it on to the shop? An operator answers you here.
contact-not-needed = Thanks, but the shop does not need your phone number, and it was not stored.
