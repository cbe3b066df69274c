-- Release: give up the lock only if it still holds our token, and hand it straight to the first
-- live waiter in line: the lock is set to that waiter's token with its TTL and a new fence, and its
-- manager is told on its channel, so the waiter holds the lease before the message even arrives.
-- Entries whose ticket is gone or whose waiter's deadline has passed are dropped on the way.
--   KEYS[1] lock   KEYS[2] fence   KEYS[3] line   KEYS[4] tickets (see acquire.lua)
--   ARGV[1] token   ARGV[2] channel prefix (manager id appended)   ARGV[3] fence retention ms
--           (at least the next holder's TTL is used)
--   ARGV[4] (optional) a manager id to take out of line first: a manager whose last waiter gave
--           up calls this with that waiter's token, passing on a lock handed to it meanwhile
-- Returns 1 when released, 0 when the lock is not ours (expired, or another holder's): then the
-- lock is left unchanged. Reading, comparing and writing in one script leaves no gap in which the
-- lock could expire and be taken by someone else between our check and our write.
-- The message is "token fence ttl server-ms lock-key" (keys and tokens contain no spaces).
-- nextFence: fence.lua, sent in front of this script.
if ARGV[4] then
  redis.call('ZREM', KEYS[3], ARGV[4])
  redis.call('HDEL', KEYS[4], ARGV[4])
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local ms
while true do
  local next = redis.call('ZPOPMIN', KEYS[3])
  if not next[1] then break end
  local ticket = redis.call('HGET', KEYS[4], next[1])
  if ticket then
    redis.call('HDEL', KEYS[4], next[1])
    if not ms then
      local now = redis.call('TIME')
      ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
    end
    local token, ttl, deadline = string.match(ticket, '^(%S+) (%d+) (%d+)$')
    if token and tonumber(deadline) > ms then
      redis.call('SET', KEYS[1], token, 'PX', ttl)
      local fence = nextFence(math.max(tonumber(ARGV[3]), tonumber(ttl)))
      redis.call('PUBLISH', ARGV[2] .. next[1],
        string.format('%s %d %d %d %s', token, fence, ttl, ms, KEYS[1]))
      return 1
    end
  end
end
redis.call('DEL', KEYS[1])
return 1
