## 付款

invoice-title = 订单 { $id }
pay-refused-cancelled = 订单 { $id } 已取消，无法再支付。请从 /catalog 重新下单。
pay-refused-expired = 订单 { $id } 已过期，商品已重新上架。请从 /catalog 重新下单。
pay-refused-paid = 订单 { $id } 已经付过款了。
pay-invoice-sent = 账单已发送。
pay-invoice-refused = 商店无法为订单 { $id } 创建账单；没有扣款。请稍后再试，或用 /paysupport 寻求帮助。
precheckout-expired = 该订单已过期。没有扣款，请重新下单。
precheckout-cancelled = 该订单已取消。没有扣款。
precheckout-paid = 该订单已支付。没有重复扣款。
precheckout-wrong-amount = 该订单的价格已变化。没有扣款，请重新下单。
precheckout-not-found = 这张账单不对应您的订单。没有扣款。
precheckout-busy = 该订单正在被修改。没有扣款，请稍后再试。
precheckout-unavailable = 支付暂时不可用。没有扣款，请稍后再试。
precheckout-replaced = 该订单已发送了一张更新的账单，请支付那一张。没有扣款。
payment-received =
    已收到付款：订单 { $id } 已支付。谢谢！
    { $hasCodes ->
        [yes] 您的兑换码将在下一条消息中发送，并随订单保存在“我的订单”中。
       *[no] 接下来：商店会为您备货，并在每一步进展时在这里通知您，通常在一个工作日内。您的订单在“我的订单”中。
    }
payment-refund-pending = 我们收到了订单 { $id } 的付款，但该订单无法完成。您的付款将全额退还。
