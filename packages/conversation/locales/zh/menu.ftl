## 主菜单、“我的订单”与联系商店

btn-menu-catalog = 🛍 商品目录
btn-menu-cart = 🛒 购物车
btn-menu-orders = 📦 我的订单
btn-menu-help = ❓ 帮助
btn-menu-contact = ✉️ 联系商店
btn-ask-shop = ✉️ 转给商店
btn-my-orders = ◀ 我的订单
btn-open-order = { $id } · { $status } · { $total }
ask-prompt = 请回复本消息写下您的问题：它会送达商店运营人员，他们会在这里回复您。
ask-sent = 您的问题 #{ $id } 已送达商店。运营人员会在此对话中回复您。
ask-nothing = 没有可转交的消息。请回复本消息写下您的问题。
order-next-reserved = 下一步：请在保留到期前付款。
order-next-paid = 下一步：商店会为您备货。每一步进展都会在这里通知您。
order-next-closed = 此订单无需再做任何操作。
duration-under-a-minute = 不到一分钟
duration-minutes = { $n } 分钟
duration-hours = { $n } 小时
unknown-message-not-text = 我只能读懂文字消息。请使用下方按钮，或写下您的问题。

## 订单卡片与账单
pay-invoice-already = 账单已发送，就在订单下方。
