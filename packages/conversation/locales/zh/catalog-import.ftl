# /import：发送到运营群的商品目录文件（docs/catalog.md）。
op-import-usage = 请以 .csv 文件发送商品目录，并附上说明 /import。各列见 docs/catalog.md。
op-import-unreadable = 未导入任何内容：无法将文件读取为不超过 2 MB 的 UTF-8 文本。
op-import-no-right = 导入商品目录需要店主，或拥有“添加新管理员”权限的管理员。未作任何更改。
op-import-refused = 未导入任何内容：{ $count } 行被拒绝。
    { $rows }
op-import-planned = 试运行：将新建 { $created } 个，修改 { $changed } 个，{ $unchanged } 个不变。{ $skus }
op-import-applied = 已导入：新建 { $created } 个，修改 { $changed } 个，{ $unchanged } 个不变。{ $skus }
op-import-conflicts = 已导入：新建 { $created } 个，修改 { $changed } 个。以下商品期间已被修改，未应用：{ $conflicts }。请重新发送文件。
btn-import = 导入
