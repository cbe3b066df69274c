# An operator action refused because the group's admin list is too old to trust and Telegram
# could not be asked for a fresh one.
op-admins-stale = Cannot check who the admins of this group are right now, so nothing was changed. Please try again in a minute.
