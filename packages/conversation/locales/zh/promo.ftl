## Promo codes: the customer's side (features/promo.ts, format/promo.ts)

promo-prompt = 请回复此消息，发送您的优惠码。
promo-applied = 已使用优惠码 { $code }：优惠 { $amount }，应付 { $total }。
promo-removed = 已从购物车移除优惠码。
promo-cart-empty = 您的购物车是空的：请先添加商品，再使用优惠码。
promo-refused = 优惠码 { $code } 无法使用：{ $why }未预留任何商品。
promo-refused-unknown = 没有这个优惠码。
promo-refused-inactive = 该优惠码已失效。
promo-refused-not-started = 该优惠码尚未生效。
promo-refused-expired = 该优惠码已过期。
promo-refused-used-up = 该优惠码的使用次数已用完。
promo-refused-used-by-you = 您已达到该优惠码的使用次数上限。
promo-refused-below-minimum = 购物车金额须至少为 { $min }。
promo-refused-currency = 该优惠码不适用于此购物车的币种。
promo-refused-total-too-small = 使用后的金额低于单笔付款的最低金额。
promo-terms-percent = −{ $value }%
promo-terms-fixed = −{ $amount }
promo-line = 优惠码 { $code }（{ $terms }）：−{ $amount }
promo-cart-payable = 应付：{ $total }
promo-cart-problem = 优惠码 { $code }：{ $why }
promo-invoice = 优惠码 { $code } { $terms }（−{ $amount }）
btn-promo = 🏷 优惠码
btn-promo-remove = ✕ 优惠码 { $code }
refund-reason-late-promo-used-up = 订单已过期且优惠码的使用次数已用完

## Promo codes: the operator group (features/operator/promo-codes.ts)

op-promo-usage =
    /promo：查看全部优惠码及剩余次数
    /promo add 优惠码 10%|5.00 uses=50 [per=1] [min=20.00] [from=YYYY-MM-DD] [until=YYYY-MM-DD]
    /promo off 优惠码：停止新的使用（已使用的订单保留优惠）
op-promo-invalid = 未更改：{ $problem }。
op-promo-list-title = 优惠码（剩余次数/总次数，每位顾客次数）：
op-promo-list-empty = 还没有优惠码。/promo add 优惠码 10% uses=50 可创建一个。
op-promo-line = { $code } { $terms }：剩余 { $remaining }/{ $total }，每位顾客 { $per } 次{ $details }{ $state }
op-promo-from = 自 { $day }
op-promo-until = 至 { $day }
op-promo-min = 至少 { $min }
op-promo-inactive = ，已停用
op-promo-details = （{ $list }）
op-promo-separator = 、
op-promo-created = 已创建：{ $line }
op-promo-exists = 优惠码 { $code } 已存在：未做更改。
op-promo-off = 已停用：{ $line }
op-promo-already-off = 已是停用状态：{ $line }
op-promo-not-found = 没有优惠码 { $code }。
