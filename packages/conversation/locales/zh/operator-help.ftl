## 运营群的 /help

op-help =
    在本群可以做的事：
    /orders：最近的订单（只看一种状态：/orders paid、/orders reserved）
    /order 订单号：单个订单的商品和顾客
    /refund 订单号：为已支付的订单退款
    /refunds：进行中的退款和待核对的付款
    /products：商品目录，含价格和库存
    /stock SKU +5、-2 或 =10：增加、减少或设定库存
    /codes SKU：数字商品的兑换码库（在其后各行添加兑换码，或发送 .txt/.csv 文件并以此为说明文字）
    /import：以 /import 为说明发送商品目录 .csv 文件：先试运行，再点“导入”（docs/catalog.md）
    /kind SKU physical|digital [价格]：实物商品（邮寄，通过支付服务商以其货币付款）或数字商品（用星星购买）
    /price SKU 25：以商品的货币设定价格（Stars 为整数；邮寄商品可写 18.50）
    /promo：优惠码（/promo add SALE10 10% uses=50、/promo off SALE10）
    /report：今天的数据
    /settings：通知、低库存提醒和本群的语言
    顾客的问题会发到这里：回复该消息即可答复顾客。
op-order-held-until = { " " }· 保留至 { $expires }
op-refund-already-done = 订单 { $id } 已经退过款了；本次未做任何操作。
op-unknown-sku-suggest = 没有 SKU 为 { $sku } 的商品。您是指 { $suggestion } 吗？
