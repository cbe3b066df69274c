## 运营群

op-not-admin = 只有本群管理员可以执行此操作。
op-not-bound = 本群不是店铺的运营群。店主可以用 /bind 绑定。
op-bind-not-owner = 只有店主可以绑定群组。
op-bind-ok = 本群已成为店铺的运营群：已支付订单和低库存提醒将发布在这里。
op-bind-elsewhere = 已配置了另一个群组作为运营群。
op-products-title = 商品：
op-products-line = { $sku } · { $title } · { $price } · 库存 { $stock }{ $inactive }
op-inactive = （未上架）
op-products-empty = 还没有商品。
op-products-page = 第 { $page }/{ $pages } 页
op-stock-usage = 用法：/stock SKU +N | -N | =N
op-stock-ok = { $sku }：库存 { $before } → { $after }。
op-stock-replayed = { $sku }：{ $change } 已经执行过（此命令被重复送达）；当前库存 { $now }。
op-stock-short = { $sku }：无法减少 { $requested }；未被保留的只有 { $available }。
op-unknown-sku = 没有 SKU 为 { $sku } 的商品。
op-price-usage = 用法：/price SKU 金额，例如 /price TEA-LONGJING 25。Stars 只能是整数（25，不能是 18.50）；其他货币可以有两位小数（18.50）。
op-price-ok = { $sku }：价格 { $before } → { $after }。
op-price-out-of-range = { $sku }：{ $price } 超出了单张账单允许的范围（{ $min } 至 { $max }）。价格未更改。
op-price-currency-unsupported = { $sku } 以 { $currency } 计价，商店无法以该货币开具账单（可用：{ $supported }）。价格未更改。
op-support-answered = 已作为请求 #{ $id } 的回复发送给顾客。
op-support-unknown = 没有编号为 #{ $id } 的客服请求；未发送任何内容。
op-support-invalid = 无法发送该回复：请填写内容，最多 3500 个字符。
op-orders-title = 订单{ $status }：
op-orders-empty = 没有订单。
op-orders-line = { $id } · { $status } · { $total } · { $date }
op-orders-usage = 要看哪些订单？单独发送 /orders 查看最近的订单，或加上状态：{ $statuses }。
op-order-usage = 用法：/order 订单号
op-order-detail =
    订单 { $id } · { $status }
    顾客：{ $customer }
    { $items }
    合计：{ $total }
    下单：{ $created }{ $expires }
op-refund-usage = 用法：/refund 订单号 [原因]（订单发货后须注明原因）
op-refund-ok = 订单 { $id } 已退款；顾客的付款正在退回。
op-refund-not-paid = 订单 { $id } 的状态为“{ $status }”：只有已支付的订单可以退款。
op-busy = 其他人正在处理此事，请稍后再试。
op-unavailable = 服务暂时不可用；没有做任何更改。请稍后再试。
op-invalid = 未被接受：{ $problems }
op-report =
    { $day } 报表（{ $zone }）
    下单：{ $placed } · 付款：{ $paid } · 取消：{ $cancelled } · 过期：{ $expired }
    收入：{ $revenue }
    已退款：{ $refunded } · 退款进行中：{ $refundsPending }
    低库存：{ $lowStock }
op-settings-title = 群组设置：
op-setting-notifyPaidOrders = 已支付订单通知
op-setting-lowStockThreshold = 低库存提醒阈值
op-setting-language = 语言
op-setting-on = 开
op-setting-off = 关
btn-setting = { $label }：{ $state }
op-settings-saved = 已保存。
op-settings-conflict = 刚才有其他人修改了设置；本次没有保存。以下是当前设置。
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
op-reply-owed-refund = 要带着这条备注将退款 { $charge } 标记为已手动退款，请回复我询问备注的那条消息，或发送 /refunded { $charge } 备注。未做任何更改。
op-refunded-usage = 用法：/refunded 交易号 [备注]
op-refunded-ok = 已标记为手动退款：{ $charge }。
op-refunded-too-long = 备注太长：最多 { $max } 个字符。未做任何更改。
op-findings-title = Stars 账目核对发现（Telegram 记录与本店不符）：{ $total }
op-findings-empty = Stars 账目：没有待处理的核对发现（已核对部分与 Telegram 的记录一致）。
op-finding-line = { $n }. { $kind } · 交易 { $charge } · Telegram { $telegram } · 本店 { $shop } · { $age }
op-finding-charge-missing = 本店未记录的付款（已按其订单补记，或已自动退款）
op-finding-payment-unknown-to-telegram = Telegram 账目中没有的付款
op-finding-refund-only-in-telegram = 在机器人之外完成的退款（已记录）
op-finding-refund-only-in-shop = Telegram 账目中没有的退款
op-finding-amount-mismatch = 金额不符
op-finding-ledger-out-of-order = Telegram 列表在已读部分之后变化（读取已停止）
btn-finding-resolve = ✓ 已处理 { $n }
op-finding-resolved = 已处理：{ $charge }。您的身份和处理时间已记录。
op-finding-already = 此项已被处理过：{ $charge }。
op-finding-unknown = 没有这一项。
