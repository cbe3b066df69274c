# The operator group was upgraded to a supergroup: the shop followed it (said in the new group).
group-upgraded = This group is now a supergroup. The shop's binding, settings and pending alerts moved here with it.
# Sent privately to every owner when the bot is removed from the operator group.
group-bot-removed = The bot was removed from the operator group “{ $title }”. { $count ->
        [one] 1 pending alert
       *[other] { $count } pending alerts
    } could not be delivered there and are kept as dead letters. Add the bot back as an admin of the group to receive alerts again.
