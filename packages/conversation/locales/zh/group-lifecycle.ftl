# The operator group was upgraded to a supergroup: the shop followed it (said in the new group).
group-upgraded = 本群已升级为超级群组。商店的绑定、设置和待发送的提醒已一并迁移到这里。
# Sent privately to every owner when the bot is removed from the operator group.
group-bot-removed = 机器人已被移出运营群「{ $title }」。有 { $count } 条待发送的提醒无法送达，已保留为死信。请把机器人重新加为该群的管理员，以继续接收提醒。
