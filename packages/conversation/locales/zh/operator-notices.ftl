## 后台发给运营群的通知

operator-order-paid =
    { $hasAmount ->
        [yes] 订单 { $id } 已支付：{ $amount }。
       *[no] 订单 { $id } 已支付。
    }{ $hasItems ->
        [yes] {"\u000A"}{ $items }
       *[no] {""}
    }{ $hasCustomer ->
        [yes] {"\u000A"}顾客：{ $customer }
       *[no] {""}
    }
operator-paid-item = • { $title } × { $quantity }：{ $amount }
operator-paid-more = • ……另有 { $count } 项
operator-paid-shipping = 配送：{ $option }（{ $amount }）
operator-paid-to = 收货：{ $to }
operator-paid-phone = 电话：{ $phone }
operator-paid-email = 邮箱：{ $email }
operator-paid-codes = 🔑 { $count }：{ $codes }
operator-refund-needed =
    { $automatic ->
        [yes] 退款进行中：{ $amount }{ $hasOrder ->
            [yes] ，订单 { $id }
           *[no] {""}
        }（{ $reason }）。Telegram Stars 会自动退还给买家，无需处理。
       *[no] 需手动退款：{ $amount }{ $hasOrder ->
            [yes] ，订单 { $id }
           *[no] {""}
        }（{ $reason }）。请在支付服务商处退款，然后用 /refunded 标记。
    }
operator-ledger-finding = Stars 账目核对：{ $finding }。交易 { $charge }{ $telegramAmount }{ $shopAmount }。详见 /refunds。
operator-ledger-telegram = ，Telegram：{ $amount }
operator-ledger-shop = ，本店：{ $amount }
finding-charge-missing = Telegram 收取了一笔本店未记录的付款；现已按发票所指订单记录（该订单无法履行或发票未指明订单时自动退款）
finding-payment-unknown-to-telegram = 本店记录的一笔付款在 Telegram 账目中不存在
finding-refund-only-in-telegram = Telegram 退回了一笔本店记为已支付的付款；已记为已退款
finding-refund-only-in-shop = 本店记录的一笔退款在 Telegram 账目中不存在
finding-amount-mismatch = Telegram 收取的金额与本店记录不符
finding-ledger-out-of-order = Telegram 的交易列表在已读部分之后发生了变化（日期倒退）；读取已在此处停止，待人工核查
operator-refunded-outside =
    Telegram 通知了一笔非本店发起的退款：{ $amount }，交易 { $charge }。{ $outcome ->
        [no-order] 本店没有这笔交易的记录，已记为已退款。
        [refunded] 订单 { $id } 已改为已退款，商品已重新上架。
       *[kept] 订单 { $id } 保持“{ $status }”。
    }
operator-low-stock =
    { $out ->
        [yes] 已售罄：{ $title }（{ $sku }）。
       *[no] 库存不足：{ $title }（{ $sku }），剩余 { $stock }（提醒阈值 { $threshold }）。
    }
operator-support-request =
    顾客问题 #{ $requestId }，来自 { $customer }{ $topic ->
        [paysupport] （关于付款）
       *[other] {""}
    }
    最近的订单：
    { $orders }
    留言：{ $text }
    回复本消息即可答复顾客。
operator-none = （无）
operator-dead-letter = 一条消息尝试 { $attempts } 次后仍无法送达，已放弃（#{ $id }）：{ $error }
operator-daily-report =
    日报 { $day }（{ $zone }）
    下单：{ $placed } · 过期：{ $expired } · 取消：{ $cancelled }
    收入：{ $revenue }
    已退款：{ $refunded } · 退款进行中：{ $refundsPending } · 无法送达的消息：{ $deadLetters }
    低库存：{ $lowStock }
