## 数字商品兑换码库：运营人员的 /codes、付款后发送的兑换码，以及再次查看

op-codes-usage =
    用法：/codes SKU 查看该商品的兑换码库。
    添加兑换码：在 /codes SKU 后面的各行写上兑换码（每行一个），或发送 .txt 或 .csv 文件并附上说明文字 /codes SKU。
op-codes-pool = { $sku }：未使用 { $unused } 个，已发放 { $assigned } 个，已作废 { $revoked } 个；库存 { $stock }。
op-codes-loaded = { $sku }：已向兑换码库和库存添加 { $added } 个新兑换码（{ $known } 个已存在，列表中重复 { $repeated } 个）。
op-codes-replayed = { $sku }：此列表已经加载过（当时添加了 { $added } 个兑换码）；本次未做任何更改。
op-codes-too-long = 未加载任何兑换码：第 { $lines } 行超过 { $max } 个字符。
op-codes-too-many = 未加载任何兑换码：共 { $count } 个，每批最多 { $max } 个。请拆分列表。
op-codes-not-digital = { $sku } 不是数字商品，没有兑换码库。
op-codes-file-refused = 未加载任何兑换码：请发送不超过 20 MB 的 .txt 或 .csv 文件。
op-codes-file-too-many = 未加载任何兑换码：文件中超过 { $max } 个兑换码，每批最多 { $max } 个。请拆分后再发送。
op-codes-file-unreadable = 未加载任何兑换码：无法将文件读取为文本。请以 UTF-8 文本重新发送。
digital-delivery =
    订单 { $id } 已支付。{ $single ->
        [yes] 您购买的内容如下：
       *[no] 您购买的内容如下（第 { $part } 部分，共 { $parts } 部分）：
    }
    { $codes }
    随时可在 /orders 中再次查看。
order-codes-heading = 您的兑换码：
refund-reason-pool-short = 商品在发货前已售罄
