## 商品目录与商品卡片

catalog-title = 商品目录，第 { $page }/{ $pages } 页：
catalog-empty = 目前没有在售商品，请稍后再来。
catalog-line = { $title }：{ $price }（剩余 { $stock }）
product-card =
    { $title }
    价格：{ $price }
    库存：{ $stock }

    数量：{ $qty }，合计 { $total }
product-gone = 该商品已下架。
btn-previous = ◀ 上一页
btn-next = 下一页 ▶
btn-back = ◀ 目录
btn-order = 下单 { $qty } 件，共 { $total }
btn-back-list = ◀ 返回
product-in-cart = 购物车中已有：{ $qty }

## 商品分类

catalog-categories =
    商品目录：请选择分类。
    按名称查找商品，直接发送名称中的词语（或 /search 关键词）。
category-title = { $title }，第 { $page }/{ $pages } 页：
category-other-title = 其他商品，第 { $page }/{ $pages } 页：
btn-category = { $title }（{ $count }）
btn-category-other = 其他商品（{ $count }）

## 搜索

search-usage = 请发送 /search 加商品名称中的词语，例如 /search 茶，或直接发送该词语。
search-title = “{ $query }”共找到 { $count } 件，第 { $page }/{ $pages } 页：
search-near = 没有商品包含“{ $query }”的全部词语；相近的有 { $count } 件，第 { $page }/{ $pages } 页：
search-none = 没有找到“{ $query }”。请换个词语，或浏览 /catalog。

## 运营群中的分类管理（/categories、/category）

op-categories-title = 商品分类（代号：名称，商品数）：
op-categories-empty = 还没有分类。用 /category add 代号 English | 中文 添加。
op-categories-other = 未分类商品：{ $count }
op-category-line = { $indent }{ $slug }：{ $title }（{ $count }）
op-category-usage =
    /category add 代号 English title | 中文名称（子分类用 上级/代号，只能嵌套一层）
    /category rename 代号 English title | 中文名称
    /category remove 代号（仅限空分类）
    /category set SKU 代号（或 none）
    代号为 1-32 个 a-z、0-9 和 - 字符，例如 green-tea。
op-category-added = 已添加分类 { $slug }：{ $title }。
op-category-renamed = 分类 { $slug } 已改名为 { $title }。
op-category-removed = 已删除分类 { $slug }。
op-category-exists = 已有分类 { $slug }。请换一个代号，或为该分类改名。
op-category-too-deep = { $parent } 本身是子分类，分类只能嵌套一层。请添加到顶级分类下。
op-category-not-empty = 分类 { $slug } 还有 { $products } 件商品和 { $subcategories } 个子分类。请先移走（/category set SKU 代号）。
op-category-missing-category = 没有分类 { $name }。/categories 可查看全部分类。
op-category-missing-parent = 没有该名称的顶级分类。/categories 可查看全部分类。
op-category-missing-product = 没有该 SKU 的商品。/products 可查看全部商品。
op-category-invalid = 未被接受：{ $problems }
op-category-assigned = { $sku } 已归入 { $category }。
op-category-already = { $sku } 已在 { $category } 中。
op-category-none = 无分类
