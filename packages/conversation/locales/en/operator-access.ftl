# Operators: who sees a customer's id, who may refund, /unbind
btn-show-customer = Show customer id
op-order-customer-id = Order { $id }: customer id { $customer }
op-refund-no-right = Refunds need an owner, or an admin with the "Add new admins" right. Nothing was changed.
op-finding-no-right = Resolving a ledger finding needs an owner, or an admin with the "Add new admins" right. Nothing was changed.
op-price-no-right = Prices need an owner, or an admin with the "Add new admins" right. Nothing was changed.
op-promo-no-right = New promo codes need an owner, or an admin with the "Add new admins" right. Nothing was changed.
op-unbind-not-owner = Only the shop's owners can unbind the operator group.
op-unbind-confirm = Unbind this group? Paid orders and low-stock alerts will no longer be posted here, and its settings are forgotten. Alerts already queued are still delivered.
btn-unbind = Yes, unbind
op-unbind-ok = This group is no longer the shop's operator group. An owner can bind it again with /bind.
