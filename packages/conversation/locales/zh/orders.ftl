## 订单

order-summary =
    订单 { $id }
    { $items }
    合计：{ $total }
    状态：{ $status }
order-reserved-until = 已为您保留 { $left }，至 { $expires }。请在此之前付款，否则商品将重新上架。
order-item = • { $title } × { $qty }：{ $amount }
btn-pay = 支付 { $total }
btn-cancel = 取消订单
order-busy = 仍在处理您的上一个请求……
unavailable = 服务暂时不可用；没有保留任何商品，也没有扣款。请稍后再试。
unavailable-nothing-changed = 服务暂时不可用；没有做任何更改。请稍后再试。
out-of-stock = 抱歉，库存不足：{ $items }。
out-of-stock-item = { $title }（仅剩 { $available }）
order-limit = 您已有 { $open } 个未完成的订单，已达上限。请先支付或取消其中一个。
order-invalid = 无法下单。请从 /catalog 重新选择商品。
order-not-found = 该订单不存在。
order-unknown = 您没有这个编号的订单。
order-link-unknown = 该付款链接不对应您的订单：只有下单人才能支付。如需购买，请从 /catalog 选择商品。
order-amount-out-of-range = 该订单总额 { $total } 超出了单张账单允许的范围（{ $min } 至 { $max }）。没有保留任何商品，请调整数量。
order-currency-unsupported = 该商品目前无法付款。没有保留任何商品。
order-cancelled = 订单 { $id } 已取消，商品已重新上架。
order-cancel-closed = 订单 { $id } 的状态为“{ $status }”，无法再取消。如有问题，请在菜单（/help）中点击“联系商店”。
order-cancel-expired = 订单 { $id } 已过期；没有扣款，商品已重新上架。
orders-title = 您的订单：
orders-empty = 您还没有订单。从 /catalog 开始吧。
orders-line = { $id } · { $status } · { $total } · { $date }
status-RESERVED = 待付款
status-PAYING = 付款中
status-PAID = 已支付
status-PROCESSING = 备货中
status-SHIPPED = 已发货
status-DELIVERED = 已送达
status-CANCELLED = 已取消
status-EXPIRED = 已过期
status-REFUNDED = 已退款
