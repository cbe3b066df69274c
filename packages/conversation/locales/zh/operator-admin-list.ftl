# An operator action refused because the group's admin list is too old to trust and Telegram
# could not be asked for a fresh one.
op-admins-stale = 暂时无法确认本群的管理员，因此没有做任何更改。请一分钟后再试。
