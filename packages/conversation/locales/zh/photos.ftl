## 商品图片（运营在群里设置；顾客在商品卡片上看到）

op-photo-usage = 用法：/photo SKU 网址，或发送一张图片并附上说明 /photo SKU。/photo SKU none 删除图片。
op-photo-set = { $sku }：这张图片已显示在商品卡片上。
op-photo-removed = { $sku }：图片已删除；卡片只显示文字。
op-photo-invalid = 这既不是图片的 http(s) 地址，也不是在这里发送的图片。未做任何更改。
op-photo-unreachable = Telegram 无法从该地址加载图片。请确认该地址能打开 JPEG 或 PNG 图片。未做任何更改。
