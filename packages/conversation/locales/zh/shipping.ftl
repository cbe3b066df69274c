## 实物商品：配送，以及支付服务商账单要填写的信息

cart-mixed-kinds = 需邮寄的实物商品与数字商品的付款方式不同，不能放在同一个订单里。未预留任何商品：请先从购物车移除其中一类，结算另一类。
pay-physical-unavailable = 订单 { $id } 含需邮寄的商品，本店暂不支持银行卡付款。未扣款；请用 /paysupport 联系本店。
shipping-not-to-country = 我们暂不向 { $country } 发货；未扣款。
precheckout-wrong-shipping = 该配送方式不适用于此地址。未扣款；请选择其他配送方式或地址。
order-shipping = 配送：{ $option }
order-ship-to = 收货：{ $to }
order-ship-phone = 电话：{ $phone }
order-ship-email = 邮箱：{ $email }
btn-show-phone = 显示联系方式
op-phone-shown =
    订单 { $id }：
    { $contact }
op-phone-none = 订单 { $id } 没有联系方式。
op-kind-usage = 用法：/kind SKU physical|digital [价格]。实物商品需邮寄，通过支付服务商付款（{ $currency }）；数字商品用星星购买。
op-kind-set = { $sku } 现在是{ $kind ->
    [PHYSICAL] 实物商品：邮寄，通过支付服务商付款
   *[DIGITAL] 数字商品：用星星购买
}，价格 { $price }。
op-kind-price = { $sku } 的价格以 { $priceCurrency } 计：请同时给出以 { $currency } 计的价格，例如 /kind { $sku } { $kind } 12.50
op-kind-no-provider = 尚未配置支付服务商（PROVIDER_TOKEN、PROVIDER_CURRENCY）：暂不能销售实物商品。
