## 付款帮助与条款

support-opened = 您的请求 #{ $id } 已送达商店。运营人员会在此对话中回复您。
support-contact = 您也可以通过 { $contact } 联系商店。
support-add-details = 如需补充说明，请发送 /paysupport 加上您的留言，例如：/paysupport 订单 ABCD2345 被扣了两次款。
support-too-long = 留言太长，无法作为客服请求发送：最多 { $max } 个字符。
support-invalid = 您的请求未能发送。请缩短留言后重试。
support-too-many = 您已有 { $max } 个请求在等待回复。商店会先回复这些请求，之后您可以再次提问。
terms-default =
    销售条款
    价格以各商品显示的货币计。订单会为您保留商品，直到您付款或保留到期；未付款的订单会被释放，不会扣款。
    款项由 Telegram 收取。若您付款后订单无法交付（已过期、已售罄或重复支付），将全额退款：Telegram Stars 自动退回，其他货币由商店退款。
    如有任何付款问题，请发送 /paysupport：您的请求会送达商店运营人员，他们会在此回复您。
