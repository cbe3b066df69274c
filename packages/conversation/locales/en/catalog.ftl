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
btn-back-list = ◀ Back
product-in-cart = In your cart: { $qty }

## Categories

catalog-categories =
    Catalog: pick a category.
    To find a product by name, send a word of it (or /search WORDS).
category-title = { $title }, page { $page } of { $pages }:
category-other-title = Other products, page { $page } of { $pages }:
btn-category = { $title } ({ $count })
btn-category-other = Other products ({ $count })

## Search

search-usage = Send /search and a word of a product's name, for example /search tea, or just send the word.
search-title = Found { $count } for “{ $query }”, page { $page } of { $pages }:
search-near = Nothing has every word of “{ $query }”; { $count ->
        [one] 1 near match
       *[other] { $count } near matches
    }, page { $page } of { $pages }:
search-none = Nothing found for “{ $query }”. Try another word, or browse the /catalog.

## Categories in the operator group (/categories, /category)

op-categories-title = Categories (slug: title, products):
op-categories-empty = There are no categories yet. Add one with /category add SLUG English | 中文
op-categories-other = Not in any category: { $count }
op-category-line = { $indent }{ $slug }: { $title } ({ $count })
op-category-usage =
    /category add SLUG English title | 中文名称 (PARENT/SLUG for a subcategory, one level only)
    /category rename SLUG English title | 中文名称
    /category remove SLUG (only an empty category)
    /category set SKU SLUG (or none)
    A slug is 1-32 of a-z, 0-9 and -, for example green-tea.
op-category-added = Category { $slug } added: { $title }.
op-category-renamed = Category { $slug } is now called { $title }.
op-category-removed = Category { $slug } removed.
op-category-exists = There is already a category { $slug }. Pick another slug, or rename that one.
op-category-too-deep = { $parent } is itself inside a category, and categories nest one level only. Add it to a top-level category.
op-category-not-empty = Category { $slug } still has { $products ->
        [one] 1 product
       *[other] { $products } products
    } and { $subcategories ->
        [one] 1 subcategory
       *[other] { $subcategories } subcategories
    }. Move them out first (/category set SKU SLUG).
op-category-missing-category = There is no category { $name }. /categories lists them.
op-category-missing-parent = There is no top-level category by that name. /categories lists them.
op-category-missing-product = There is no product with that SKU. /products lists them.
op-category-invalid = That was not accepted: { $problems }
op-category-assigned = { $sku } is now in { $category }.
op-category-already = { $sku } is already in { $category }.
op-category-none = no category
