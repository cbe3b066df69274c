## Payment support and terms

support-opened = Your request #{ $id } has reached the shop. An operator will answer you in this chat.
support-contact = You can also reach the shop at { $contact }.
support-add-details = To tell them more, send /paysupport followed by your message, for example: /paysupport order ABCD2345 was charged twice.
support-too-long = That message is too long for a support request: at most { $max ->
        [one] 1 character
       *[other] { $max } characters
    }, please.
support-invalid = Your request could not be sent. Please try again with a shorter message.
support-too-many = You have { $max ->
        [one] 1 request
       *[other] { $max } requests
    } waiting for an answer already. The shop will answer those first; then you can ask again.
terms-default =
    Terms of sale
    Prices are in the currency shown on each product. An order holds its items until you pay or the reservation runs out; an unpaid order is released and nothing is charged.
    Payments are taken by Telegram. If an order cannot be delivered after you paid (it expired, sold out, or was paid twice), it is refunded in full: Telegram Stars automatically, other currencies by the shop.
    For any problem with a payment, send /paysupport: your request goes to the shop's operators, who answer you here.
