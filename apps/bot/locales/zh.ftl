## 顾客:开始、帮助、语言

welcome =
    欢迎,{ $name }!
    用 /catalog 浏览有货的商品,用 /orders 查看您的订单。
help =
    /catalog:商品、价格与库存
    /orders:您的订单及其状态
    /language:切换 English / 中文
    选择商品和数量后点击“下单”:商品会为您保留,直到您付款或保留到期。
language-choose = 请选择语言:
language-set = 语言已设置为中文。
unknown-message = 我没有看懂。试试 /catalog 或 /help。
contact-not-needed = 谢谢,不过本店不需要您的电话号码,也没有保存它。

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

## 订单

order-summary =
    订单 { $id }
    { $items }
    合计:{ $total }
    状态:{ $status }
order-reserved-until = 已为您保留至 { $expires }。请在此之前付款,否则商品将重新上架。
order-item = • { $title } × { $qty }:{ $amount }
btn-pay = 支付 { $total }
btn-cancel = 取消订单
order-busy = 仍在处理您的上一个请求……
unavailable = 服务暂时不可用;没有保留任何商品,也没有扣款。请稍后再试。
unavailable-nothing-changed = 服务暂时不可用;没有做任何更改。请稍后再试。
out-of-stock = 抱歉,库存不足:{ $items }。
out-of-stock-item = { $title }(仅剩 { $available })
order-limit = 您已有 { $open } 个未完成的订单,已达上限。请先支付或取消其中一个。
order-invalid = 无法下单。请从 /catalog 重新选择商品。
order-not-found = 该订单不存在。
order-not-yours = 这不是您的订单。
order-cancelled = 订单 { $id } 已取消,商品已重新上架。
order-cancel-closed = 订单 { $id } 的状态为“{ $status }”,无法再取消。如有问题请联系店家。
order-cancel-expired = 订单 { $id } 已过期;没有扣款,商品已重新上架。
orders-title = 您的订单:
orders-empty = 您还没有订单。从 /catalog 开始吧。
orders-line = { $id } · { $status } · { $total } · { $date }
status-RESERVED = 已保留,待付款
status-PAYING = 付款中
status-PAID = 已付款
status-FULFILLED = 已完成
status-CANCELLED = 已取消
status-EXPIRED = 已过期
status-REFUNDED = 已退款

## 付款

invoice-title = 订单 { $id }
pay-refused-cancelled = 订单 { $id } 已取消,无法再支付。请从 /catalog 重新下单。
pay-refused-expired = 订单 { $id } 已过期,商品已重新上架。请从 /catalog 重新下单。
pay-refused-paid = 订单 { $id } 已经付过款了。
pay-invoice-sent = 账单已发送。
precheckout-expired = 该订单已过期。没有扣款,请重新下单。
precheckout-cancelled = 该订单已取消。没有扣款。
precheckout-paid = 该订单已付款。没有重复扣款。
precheckout-wrong-amount = 该订单的价格已变化。没有扣款,请重新下单。
precheckout-not-yours = 这张账单属于其他人。没有扣款。
precheckout-not-found = 该订单不存在。没有扣款。
precheckout-busy = 该订单正在被修改。没有扣款,请稍后再试。
precheckout-unavailable = 支付暂时不可用。没有扣款,请稍后再试。
payment-received = 已收到付款:订单 { $id } 已付款。谢谢!
payment-refund-pending = 我们收到了订单 { $id } 的付款,但该订单无法完成。您的付款将全额退还。

## 错误与限制

button-invalid = 此按钮已失效。
rate-limited = 请求过于频繁,请慢一点。
error-generic = 我们这边出了点问题,请重试。

## 运营群

op-not-admin = 只有本群管理员可以执行此操作。
op-not-bound = 本群不是店铺的运营群。店主可以用 /bind 绑定。
op-bind-not-owner = 只有店主可以绑定群组。
op-bind-ok = 本群已成为店铺的运营群:已付款订单和低库存提醒将发布在这里。
op-bind-elsewhere = 已配置了另一个群组作为运营群。
op-products-title = 商品:
op-products-line = { $sku } · { $title } · { $price } · 库存 { $stock }{ $inactive }
op-inactive = (未上架)
op-products-empty = 还没有商品。
op-stock-usage = 用法:/stock SKU +N | -N | =N
op-stock-ok = { $sku }:库存 { $before } → { $after }。
op-stock-replayed = { $sku }:{ $change } 已经执行过(此命令被重复送达);当前库存 { $now }。
op-stock-short = { $sku }:无法减少 { $requested };未被保留的只有 { $available }。
op-unknown-sku = 没有 SKU 为 { $sku } 的商品。
op-price-usage = 用法:/price SKU 金额
op-price-ok = { $sku }:价格 { $before } → { $after }。
op-orders-title = 订单{ $status }:
op-orders-empty = 没有订单。
op-orders-line = { $id } · { $status } · { $total } · { $date }
op-orders-usage = 用法:/orders [{ $statuses }]
op-order-usage = 用法:/order 订单号
op-order-detail =
    订单 { $id } · { $status }
    顾客:{ $customer }
    { $items }
    合计:{ $total }
    下单:{ $created } · 到期:{ $expires }
op-refund-usage = 用法:/refund 订单号
op-refund-ok = 订单 { $id } 已退款;顾客的付款正在退回。
op-refund-not-paid = 订单 { $id } 的状态为“{ $status }”:只有已付款的订单可以退款。
op-busy = 其他人正在处理此事,请稍后再试。
op-unavailable = 服务暂时不可用;没有做任何更改。请稍后再试。
op-invalid = 未被接受:{ $problems }
op-report =
    { $day } 报表
    下单:{ $placed } · 付款:{ $paid } · 取消:{ $cancelled } · 过期:{ $expired }
    收入:{ $revenue }
    低库存:{ $lowStock }
op-settings-title = 群组设置(版本 { $version }):
op-setting-notifyPaidOrders = 已付款订单通知
op-setting-lowStockThreshold = 低库存提醒阈值
op-setting-language = 语言
op-setting-on = 开
op-setting-off = 关
btn-setting = { $label }:{ $state }
op-settings-saved = 已保存。
op-settings-conflict = 刚才有其他人修改了设置;本次没有保存。以下是当前设置。
