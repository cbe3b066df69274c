## 购物车

cart-title = 您的购物车：
cart-empty = 购物车是空的。请在商品目录中挑选商品，点“加入购物车”。
cart-line = • { $title } × { $qty }：{ $amount }
cart-line-short = （仅剩 { $available }）
cart-line-gone = （已下架）
cart-total = 合计：{ $total }（共 { $units } 件）
cart-not-reserved = 结算前不会为您保留库存。
cart-added = 已加入购物车：{ $title }，现为 { $qty } 件。购物车共 { $units } 件。
cart-emptied = 购物车已清空。
cart-changed = 此消息显示后，您的购物车有了变化。以下是当前的购物车：请核对后再次点“结算”。未保留任何商品。
cart-short = 库存不足：{ $items }。未保留任何商品，购物车保持不变：请减少或移除这些商品后再结算。
cart-short-alert = 部分商品库存不足：详见下方购物车。未保留任何商品。
cart-short-item = { $title }（仅剩 { $available }）
cart-short-none = { $title }（已售罄）
cart-too-many-lines = 购物车最多可放 { $max } 种商品（一个订单）。请先结算，或移除一种。
cart-too-many-units = 每个订单中同一商品最多 { $max } 件。
cart-amount-out-of-range = 购物车合计 { $total }，超过单个订单的上限（{ $max }）。未保留任何商品，请移除部分商品。
btn-cart = 🛒 购物车（{ $units }）
btn-cart-add = 🛒 加入购物车 { $qty } 件
btn-cart-empty = 🗑 清空购物车
btn-checkout = ✅ 结算 · { $total }
