-- The next fencing number of a lock, from its counter KEYS[2]. Shared: scripts.ts sends this file
-- in front of acquire.lua and release.lua (a lock is acquired by one, handed over by the other).
-- The fence grows by one per acquisition (INCR keeps the counter's expiry). A missing counter (new
-- resource, or expired) is seeded from the server clock in microseconds and expires retentionMs
-- later, so idle resources cost no memory for ever. A seed is larger than any fence handed out
-- before: the previous seed is at least the retention time older, and no resource is locked a
-- thousand times per millisecond (unless the clock went back by that much).
local function nextFence(retentionMs)
  local fence = redis.call('INCR', KEYS[2])
  if fence == 1 then
    local now = redis.call('TIME')
    fence = tonumber(now[1]) * 1000000 + tonumber(now[2])
    redis.call('SET', KEYS[2], string.format('%d', fence), 'PX', retentionMs)
  end
  return fence
end
