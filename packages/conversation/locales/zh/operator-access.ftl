## 运营:谁能看到顾客 ID、谁能退款、/unbind
btn-show-customer = 显示顾客 ID
op-order-customer-id = 订单 { $id }：顾客 ID { $customer }
op-refund-no-right = 退款需要店主，或拥有“添加新管理员”权限的管理员。未作任何更改。
op-finding-no-right = 处理账本差异需要店主，或拥有“添加新管理员”权限的管理员。未作任何更改。
op-price-no-right = 修改价格需要店主，或拥有“添加新管理员”权限的管理员。未作任何更改。
op-promo-no-right = 新建优惠码需要店主，或拥有“添加新管理员”权限的管理员。未作任何更改。
op-unbind-not-owner = 只有店主可以解除运营群绑定。
op-unbind-confirm = 确定解除本群的绑定吗？已支付订单和低库存提醒将不再发布在这里，本群的设置也会被清除。已排队的提醒仍会送达。
btn-unbind = 确定解除
op-unbind-ok = 本群已不再是店铺的运营群。店主可以用 /bind 重新绑定。
