# A refused field: core says which field, which rule and which bound (packages/core/src/problems.ts).
refusal-problem = { $field }: { $rule ->
    [required] required
    [type] not the right kind of value
    [integer] must be a whole number
    [min] at least { $bound }
    [max] at most { $bound }
    [min-length] at least { $bound } { $bound ->
        [one] character
       *[other] characters
    }
    [max-length] at most { $bound } { $bound ->
        [one] character
       *[other] characters
    }
    [min-items] at least { $bound } { $bound ->
        [one] entry
       *[other] entries
    }
    [max-items] at most { $bound } { $bound ->
        [one] entry
       *[other] entries
    }
    [format] { $bound ->
        [sku] letters, digits, '.', '_' and '-' only
        [currency] a 3-letter currency code
        [slug] 1-32 of a-z, 0-9 and '-', starting with a letter or digit
        [promo-code] 3-32 of A-Z, 0-9, '-' and '_', starting with a letter or digit
        [order-id] not an order id
        [telegram-id] not a Telegram id
        [username] not a Telegram username
        [discount] a percentage such as 10% or an amount such as 5.00
        [amount] not an amount in that currency
        [day] a day: YYYY-MM-DD
        [photo] a file's path, an HTTP(S) URL or a file_id
       *[other] not in the expected form
    }
    [one-of] one of { $bound }
    [duplicate] { $bound } appears twice
    [unknown] { $bound } is not known
    [not-on-sale] { $bound } is not on sale
    [mixed-currencies] products in different currencies cannot share an order
    [after] must come after { $bound }
    [kind-currency] digital goods are priced in XTR, physical goods in the provider's currency
    [invoice-amount] no invoice can ask this amount
    [fixed] stays { $bound }: orders were placed in it
    [not-csv] not a CSV file
    [header] must be { $bound }
    [columns] needs the header's { $bound } fields
    [needs-bot-token] uploading a file needs the bot's token (BOT_TOKEN)
    [upload-failed] Telegram did not take the upload
   *[other] not accepted
}
# The fields an operator types, by the name core gives them; any other shows as named there.
refusal-field-sku = SKU
refusal-field-code = code
refusal-field-value = amount
refusal-field-currency = currency
refusal-field-units = units
refusal-field-priceMinor = price
refusal-field-slug = slug
refusal-field-titleEn = English title
refusal-field-titleZh = Chinese title
refusal-field-totalUses = uses
refusal-field-perCustomer = per customer
refusal-field-minTotalMinor = minimum
refusal-field-startsAt = from
refusal-field-endsAt = until
refusal-field-text = text
refusal-field-batchId = batch
refusal-field-items = items
refusal-field-quantity = quantity
refusal-field-amount = amount
refusal-field-option = option
refusal-field-uses = uses
refusal-field-per = per
refusal-field-min = min
refusal-field-from = from
refusal-field-until = until
refusal-field-file = file
refusal-field-header = header
refusal-field-row = row
refusal-field-title_en = English title
refusal-field-title_zh = Chinese title
refusal-field-category = category
refusal-field-price = price
refusal-field-kind = kind
refusal-field-stock = stock
refusal-field-photo = photo
