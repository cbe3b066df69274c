## Catalog and product card

catalog-title = Catalog, page { $page } of { $pages }:
catalog-empty = Nothing is on sale right now. Please come back later.
catalog-line = { $title }: { $price } ({ $stock } left)
product-card =
    { $title }
    Price: { $price }
    In stock: { $stock }

    Quantity: { $qty }, total { $total }
product-gone = This product is no longer on sale.
btn-previous = ◀ Previous
btn-next = Next ▶
btn-back = ◀ Catalog
btn-order = Order { $qty } for { $total }
