# A refused field: core says which field, which rule and which bound (packages/core/src/problems.ts).
refusal-problem = { $field }：{ $rule ->
    [required] 必填
    [type] 值的类型不对
    [integer] 必须是整数
    [min] 至少 { $bound }
    [max] 最多 { $bound }
    [min-length] 至少 { $bound } 个字符
    [max-length] 最多 { $bound } 个字符
    [min-items] 至少 { $bound } 项
    [max-items] 最多 { $bound } 项
    [format] { $bound ->
        [sku] 只能包含字母、数字、“.”、“_”和“-”
        [currency] 三个字母的货币代码
        [slug] 1 至 32 个 a-z、0-9 或“-”，以字母或数字开头
        [promo-code] 3 至 32 个 A-Z、0-9、“-”或“_”，以字母或数字开头
        [order-id] 不是订单号
        [telegram-id] 不是 Telegram ID
        [username] 不是 Telegram 用户名
        [discount] 百分比（如 10%）或金额（如 5.00）
        [amount] 不是该货币的金额
        [day] 日期：YYYY-MM-DD
        [photo] 文件路径、HTTP(S) 链接或 file_id
       *[other] 格式不对
    }
    [one-of] 只能是 { $bound } 之一
    [duplicate] { $bound } 出现了两次
    [unknown] { $bound } 不存在
    [not-on-sale] { $bound } 未在售
    [mixed-currencies] 不同货币的商品不能放在同一订单中
    [after] 必须晚于 { $bound }
    [kind-currency] 数字商品以 XTR 计价，实物商品以支付服务商的货币计价
    [invoice-amount] 任何账单都不能收取这个金额
    [fixed] 保持为 { $bound }：已有订单以此下单
    [not-csv] 不是 CSV 文件
    [header] 必须是 { $bound }
    [columns] 需要与表头相同的 { $bound } 个字段
    [needs-bot-token] 上传文件需要机器人的令牌（BOT_TOKEN）
    [upload-failed] Telegram 未接受上传
   *[other] 未被接受
}
# The fields an operator types, by the name core gives them; any other shows as named there.
refusal-field-sku = SKU
refusal-field-code = 代码
refusal-field-value = 金额
refusal-field-currency = 货币
refusal-field-units = 数量
refusal-field-priceMinor = 价格
refusal-field-slug = 标识
refusal-field-titleEn = 英文标题
refusal-field-titleZh = 中文标题
refusal-field-totalUses = 次数
refusal-field-perCustomer = 每位顾客
refusal-field-minTotalMinor = 最低金额
refusal-field-startsAt = 开始
refusal-field-endsAt = 结束
refusal-field-text = 内容
refusal-field-batchId = 批次
refusal-field-items = 商品
refusal-field-quantity = 数量
refusal-field-amount = 金额
refusal-field-option = 选项
refusal-field-uses = 次数
refusal-field-per = 每人
refusal-field-min = 最低金额
refusal-field-from = 开始
refusal-field-until = 结束
refusal-field-file = 文件
refusal-field-header = 表头
refusal-field-row = 行
refusal-field-title_en = 英文标题
refusal-field-title_zh = 中文标题
refusal-field-category = 分类
refusal-field-price = 价格
refusal-field-kind = 类型
refusal-field-stock = 库存
refusal-field-photo = 图片
