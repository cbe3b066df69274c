## 顾客:开始、帮助、语言

welcome =
    欢迎,{ $name }!
    用 /catalog 浏览有货的商品,用 /orders 查看您的订单。
help =
    /catalog:商品、价格与库存
    /orders:您的订单及其状态
    /language:切换 English / 中文
    /paysupport：付款问题，由商店运营人员协助
    /terms：商店的销售条款
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
order-link-not-found = 该付款链接对应的订单不存在。
order-link-not-yours = 该付款链接属于别人的订单，只能由下单人支付。如需购买，请从 /catalog 选择商品。
order-amount-out-of-range = 该订单总额 { $total } 超出了单张账单允许的范围（{ $min } 至 { $max }）。没有保留任何商品，请调整数量。
order-currency-unsupported = 该商品目前无法付款。没有保留任何商品。
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
pay-invoice-refused = 商店无法为订单 { $id } 创建账单；没有扣款。请稍后再试，或用 /paysupport 寻求帮助。
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
op-products-page = 第 { $page }/{ $pages } 页
op-stock-usage = 用法:/stock SKU +N | -N | =N
op-stock-ok = { $sku }:库存 { $before } → { $after }。
op-stock-replayed = { $sku }:{ $change } 已经执行过(此命令被重复送达);当前库存 { $now }。
op-stock-short = { $sku }:无法减少 { $requested };未被保留的只有 { $available }。
op-unknown-sku = 没有 SKU 为 { $sku } 的商品。
op-price-usage = 用法:/price SKU 金额
op-price-ok = { $sku }:价格 { $before } → { $after }。
op-price-out-of-range = { $sku }：{ $price } 超出了单张账单允许的范围（{ $min } 至 { $max }）。价格未更改。
op-price-currency-unsupported = { $sku } 以 { $currency } 计价，商店无法以该货币开具账单（可用：{ $supported }）。价格未更改。
op-support-answered = 已作为请求 #{ $id } 的回复发送给顾客。
op-support-unknown = 没有编号为 #{ $id } 的客服请求；未发送任何内容。
op-support-invalid = 无法发送该回复：请填写内容，最多 3500 个字符。
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
op-refunds-title = 待退款：{ $total }
op-refunds-empty = 没有待退款：每笔付款都已交付或已退款。
op-refunds-line = { $n }. { $amount } · { $order } · { $age } · { $state }
op-refunds-order = 订单 { $id }
op-refunds-no-order = 无订单
op-refunds-more = ……另有 { $more } 笔。
op-refund-state-waiting = 等待 Telegram 处理
op-refund-state-refused = Telegram 拒绝退款：{ $error }
op-refund-state-by-hand = 需手动退款
op-age-minutes = { $n } 分钟
op-age-hours = { $n } 小时
op-age-days = { $n } 天
btn-refund-retry = ↻ 重试 { $n }
btn-refund-mark = ✓ 已退款 { $n }
op-refund-retry-ok = 已重新向 Telegram 发起退款。
op-refund-retry-waiting = 该退款已在发往 Telegram 的途中。
op-refund-retry-not-stars = 只有 Stars 退款可以重试。请在支付服务商处退款，然后标记为已退款。
op-refund-already = 该付款已经退款。
op-refund-not-owed = 该付款用于支付订单：无需退款。
op-refund-unknown = 没有这笔付款。
op-refund-note-prompt =
    回复本消息并附上备注（不需要备注请回复“-”），即可将此退款标记为已手动退款。等同于命令：/refunded { $charge } 备注
    🧾 { $charge }
op-refunded-usage = 用法：/refunded 交易号 [备注]
op-refunded-ok = 已标记为手动退款：{ $charge }。
op-refunded-too-long = 备注太长：最多 { $max } 个字符。未做任何更改。
op-findings-title = Stars 账目核对发现（Telegram 记录与本店不符）：{ $total }
op-findings-empty = Stars 账目：没有待处理的核对发现（已核对部分与 Telegram 的记录一致）。
op-finding-line = { $n }. { $kind } · 交易 { $charge } · Telegram { $telegram } · 本店 { $shop } · { $age }
op-finding-charge-missing = 本店未记录的付款（已自动退款）
op-finding-payment-unknown-to-telegram = Telegram 账目中没有的付款
op-finding-refund-only-in-telegram = 在机器人之外完成的退款（已记录）
op-finding-refund-only-in-shop = Telegram 账目中没有的退款
op-finding-amount-mismatch = 金额不符
btn-finding-resolve = ✓ 已处理 { $n }
op-finding-resolved = 已处理：{ $charge }。您的身份和处理时间已记录。
op-finding-already = 此项已被处理过：{ $charge }。
op-finding-unknown = 没有这一项。

## 付款帮助与条款

support-opened = 您的请求 #{ $id } 已送达商店。运营人员会在此对话中回复您。
support-contact = 您也可以通过 { $contact } 联系商店。
support-add-details = 如需补充说明，请发送 /paysupport 加上您的留言，例如：/paysupport 订单 ABCD2345 被扣了两次款。
support-too-long = 留言太长，无法作为客服请求发送：最多 { $max } 个字符。
support-invalid = 您的请求未能发送。请缩短留言后重试。
terms-default =
    销售条款
    价格以各商品显示的货币计。订单会为您保留商品，直到您付款或保留到期；未付款的订单会被释放，不会扣款。
    款项由 Telegram 收取。若您付款后订单无法交付（已过期、已售罄或重复支付），将全额退款：Telegram Stars 自动退回，其他货币由商店退款。
    如有任何付款问题，请发送 /paysupport：您的请求会送达商店运营人员，他们会在此回复您。

# Operators: who sees a customer's id, who may refund, /unbind
btn-show-customer = 显示顾客 ID
op-order-customer-id = 订单 { $id }：顾客 ID { $customer }
op-refund-no-right = 退款需要店主，或拥有“添加新管理员”权限的管理员。未作任何更改。
op-unbind-not-owner = 只有店主可以解除运营群绑定。
op-unbind-confirm = 确定解除本群的绑定吗？已付款订单和低库存提醒将不再发布在这里，本群的设置也会被清除。已排队的提醒仍会送达。
btn-unbind = 确定解除
op-unbind-ok = 本群已不再是店铺的运营群。店主可以用 /bind 重新绑定。
