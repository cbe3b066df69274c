## 履约：运营人员推进已支付的订单、通知顾客，以及订单记录

# 发给顾客（由后台发送），每个订单每个状态一次。
order-status =
    { $step ->
        [PROCESSING] 您的订单 { $id } 正在备货。发货时我们会通知您。
        [SHIPPED] 您的订单 { $id } 已发货。{ $hasNote ->
            [yes] {"\u000A"}物流单号：{ $note }
           *[no] {""}
        }{"\u000A"}送达时我们会通知您。
       *[DELIVERED] 您的订单 { $id } 已送达。感谢您的惠顾！
    }

# 运营群中已支付订单通知下方的按钮。
btn-fulfil-processing = 📦 开始备货
btn-fulfil-shipped = 🚚 标记为已发货
btn-fulfil-delivered = ✅ 标记为已送达

# 运营人员的命令与回复。
op-fulfil-usage-process = 用法：/process 订单号
op-fulfil-usage-ship = 用法：/ship 订单号 [物流单号]
op-fulfil-usage-deliver = 用法：/deliver 订单号
op-fulfil-ok =
    { $step ->
        [PROCESSING] 订单 { $id } 正在备货（{ $who }）。已通知顾客。
        [SHIPPED] 订单 { $id } 已发货（{ $who }）{ $hasNote ->
            [yes] ，物流单号：{ $note }
           *[no] {""}
        }。已通知顾客。
       *[DELIVERED] 订单 { $id } 已送达（{ $who }）。已通知顾客。
    }
op-fulfil-already = 已处理过：订单 { $id } 自 { $when } 起为{ $status }，由 { $who } 操作。未做任何更改。
op-fulfil-already-unknown = 已处理过：订单 { $id } 当前为{ $status }。未做任何更改。
op-fulfil-not-paid = 订单 { $id } 当前为{ $status }：只有已支付的订单才能推进。
op-fulfil-note-too-long = 物流单号最多 { $max } 个字符。未做任何更改。
op-fulfil-someone = 另一位运营人员
op-ship-note-prompt =
    订单 { $id } 即将发货。请回复本消息，填写给顾客的物流单号；没有请回复“-”。
    🚚 { $id }
op-reply-owed-ship = 要让订单 { $id } 带着这条物流单号发货，请回复我询问单号的那条消息，或发送 /ship { $id } 单号。未做任何更改。

# 商品发出后的退款。
op-refund-reason-required = 订单 { $id } 当前为{ $status }：商品已发出，退款须注明原因（原因会记入订单记录）。请发送 /refund { $id } 原因。未做任何更改。
op-refund-shipped-ok = 订单 { $id } 保持{ $status }；款项正在退还给顾客。已记录原因：{ $reason }

# 订单记录：显示在订单卡片、/orders 以及运营群的 /order 中。
order-timeline-title = 订单记录：
order-timeline-move = { $when } · { $status }{ $hasNote ->
        [yes] （{ $note }）
       *[no] {""}
    }
order-timeline-refund = { $when } · 已退款{ $hasNote ->
        [yes] （{ $note }）
       *[no] {""}
    }
