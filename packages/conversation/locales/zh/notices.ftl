## 后台发给顾客的通知（发送时生成；payment-received 在 payments.ftl）

order-expired = 您的订单 { $id } 保留已到期，商品已重新上架。没有扣款。可在 /catalog 重新下单。
order-refunded = 订单 { $id } 已退款：{ $amount } 将退还给您。
payment-refunded =
    { $hasOrder ->
        [yes] 您为订单 { $id } 支付的 { $amount } 无法入账（{ $reason }），将全额退款。
       *[no] 您支付的 { $amount } 无法入账（{ $reason }），将全额退款。
    }
support-answer =
    商店对您的问题 #{ $requestId } 的回复：
    { $text }
refund-reason-late-out-of-stock = 订单已过期且商品已售罄
refund-reason-already-paid = 订单已支付过
refund-reason-amount-mismatch = 金额与订单不符
refund-reason-not-yours = 订单不属于您
refund-reason-unknown-order = 找不到该订单
refund-reason-operator = 商店为订单办理了退款
refund-reason-duplicate = 重复支付
order-card =
    订单 { $id }：{ $status }。
    商品明细和后续进展请见 /orders。
