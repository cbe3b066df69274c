-- The next fencing number of a lock, from its counter KEYS[2]. Shared: scripts.ts sends this file
-- in front of try.lua, acquire.lua and release.lua (a lock is acquired by one, handed over by another).
-- The fence is the larger of the counter plus one and a floor from the server clock (microseconds
-- since the epoch). The floor keeps fences growing when the counter is gone or behind: a resource
-- idle past the retention time, or a replica promoted before it had the counter's last writes.
-- Either way the next fence is above every fence handed out before, unless a resource is locked
-- more than once per microsecond or the new primary's clock is behind the old one's.
-- The counter expires retentionMs after the last acquisition, so idle resources cost no memory.
local function nextFence(retentionMs)
  local now = redis.call('TIME')
  local floor = tonumber(now[1]) * 1000000 + tonumber(now[2])
  local fence = tonumber(redis.call('GET', KEYS[2]) or '0') + 1
  if fence < floor then fence = floor end
  redis.call('SET', KEYS[2], string.format('%d', fence), 'PX', retentionMs)
  return fence
end
