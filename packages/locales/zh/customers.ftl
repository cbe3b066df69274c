## 顾客:开始、帮助、语言

welcome =
    欢迎,{ $name }!
    用 /catalog 浏览有货的商品,用 /orders 查看您的订单。
help =
    /catalog:商品、价格与库存
    /orders:您的订单及其状态
    /language:切换 English / 中文
    /paysupport：付款问题，由商店运营人员协助
    /terms：商店的销售条款
    选择商品和数量后点击“下单”:商品会为您保留,直到您付款或保留到期。
language-choose = 请选择语言:
language-set = 语言已设置为中文。
unknown-message = 我没有看懂。试试 /catalog 或 /help。
contact-not-needed = 谢谢,不过本店不需要您的电话号码,也没有保存它。
