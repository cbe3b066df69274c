## Physical goods: shipping, and what the provider's invoice asks

# A cart with both kinds at checkout (a callback alert: at most 200 characters).
cart-mixed-kinds = Shipped goods and digital goods are paid differently, so they cannot share an order. Nothing was reserved: remove one kind from the cart and check out the other first.
# Pay pressed on a physical order while the shop has no payment provider.
pay-physical-unavailable = Order { $id } has goods that are shipped, and the shop does not take card payments yet. Nothing was charged; please ask the shop with /paysupport.
# answerShippingQuery ok=false: Telegram shows it in the payment form.
shipping-not-to-country = We do not ship to { $country } yet; nothing was charged.
precheckout-wrong-shipping = This shipping option is not available for that address. Nothing was charged; please choose another option or address.
# Operators: an order's shipping, in /order and the order's card.
order-shipping = Shipping: { $option }
order-ship-to = Deliver to: { $to }
order-ship-phone = Phone: { $phone }
order-ship-email = E-mail: { $email }
btn-show-phone = Show contact
op-phone-shown =
    Order { $id }:
    { $contact }
op-phone-none = Order { $id } has no contact details.
# /kind SKU physical|digital
op-kind-usage = Usage: /kind SKU physical|digital [PRICE]. Physical goods are shipped and paid through the provider ({ $currency }); digital goods are sold for Stars.
op-kind-set = { $sku } is now { $kind ->
    [PHYSICAL] physical: shipped, paid through the provider
   *[DIGITAL] digital: sold for Stars
}, at { $price }.
op-kind-price = { $sku } is priced in { $priceCurrency }: give its price in { $currency } too, e.g. /kind { $sku } { $kind } 12.50
op-kind-no-provider = No payment provider is configured (PROVIDER_TOKEN, PROVIDER_CURRENCY): physical goods cannot be sold yet.
