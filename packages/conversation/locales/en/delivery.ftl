## Digital goods from a pool: operators' /codes, the codes sent on payment, and shown again

op-codes-usage =
    Usage: /codes SKU shows the product's pool of codes.
    To add codes, put them on the lines after /codes SKU (one a line), or send a .txt or .csv file with the caption /codes SKU.
op-codes-pool = { $sku }: { $unused } unused, { $assigned } delivered, { $revoked } revoked; { $stock } in stock.
op-codes-loaded = { $sku }: { $added ->
        [one] 1 new code
       *[other] { $added } new codes
    } added to the pool and to the stock ({ $known } already there, { $repeated } repeated in the list).
op-codes-replayed = { $sku }: this list was loaded already ({ $added ->
        [one] 1 code
       *[other] { $added } codes
    } added then); nothing more was done.
op-codes-too-long = Nothing was loaded: line(s) { $lines } are longer than { $max ->
        [one] 1 character
       *[other] { $max } characters
    }.
op-codes-too-many = Nothing was loaded: { $count ->
        [one] 1 code
       *[other] { $count } codes
    }, at most { $max } in one batch. Please split the list.
op-codes-not-digital = { $sku } is not a digital product: it has no pool of codes.
op-codes-file-refused = Nothing was loaded: send a .txt or .csv file of at most 20 MB.
op-codes-file-too-many = Nothing was loaded: the file holds more than { $max ->
        [one] 1 code
       *[other] { $max } codes
    }, at most { $max } in one batch. Please split it.
op-codes-file-unreadable = Nothing was loaded: the file could not be read as text. Please send it again as UTF-8 text.
digital-delivery =
    Order { $id } is paid. { $single ->
        [yes] Here is what you bought:
       *[no] Here is what you bought (part { $part } of { $parts }):
    }
    { $codes }
    You can see it again any time under /orders.
order-codes-heading = Your codes:
refund-reason-pool-short = the product ran out before it could be delivered
