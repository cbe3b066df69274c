## 商品目录与商品卡片

catalog-title = 商品目录,第 { $page }/{ $pages } 页:
catalog-empty = 目前没有在售商品,请稍后再来。
catalog-line = { $title }:{ $price }(剩余 { $stock })
product-card =
    { $title }
    价格:{ $price }
    库存:{ $stock }

    数量:{ $qty },合计 { $total }
product-gone = 该商品已下架。
btn-previous = ◀ 上一页
btn-next = 下一页 ▶
btn-back = ◀ 目录
btn-order = 下单 { $qty } 件,共 { $total }
