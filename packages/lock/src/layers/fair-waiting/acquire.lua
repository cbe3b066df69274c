-- Acquire: take the lock if it is free, with a millisecond expiry and a fencing number, in one
-- atomic step; otherwise say how long it stays taken and, for a caller that will wait, put its
-- manager in line with a ticket, so that a release can hand the lock straight to that caller.
--   KEYS[1] lock     {ns:lock:kind:id}           value: the holder's token
--   KEYS[2] fence    {ns:lock:kind:id}:fence     same hash tag, so the same Cluster slot
--   KEYS[3] line     {ns:lock:kind:id}:queue     sorted set: managers waiting, by arrival
--   KEYS[4] tickets  {ns:lock:kind:id}:tickets   hash: manager -> "token ttl deadline" of its
--                                                first waiter (deadline: server ms it gives up)
--   ARGV[1] token (random, from the caller; a waiter keeps one for its whole wait)
--   ARGV[2] ttl ms   ARGV[3] fence retention ms (at least the TTL is used)
--   ARGV[4] manager id when the caller waits in line, '' when it tries once
--   ARGV[5] ms the caller will still wait   ARGV[6] how long the line is kept (ms)
--   ARGV[7] '1' when that manager may already be in line (so taking the lock takes it out)
-- Returns {1, fence} when acquired; {1, fence, pttl} when a release had already handed the lock
-- to this token (its message not read yet, or lost); {0, pttl, server ms} when taken
-- (pttl < 0: the holder set no expiry; server ms only for a caller put in line).
-- nextFence: fence.lua, sent in front of this script.
local waiter = ARGV[4]
local retention = math.max(tonumber(ARGV[3]), tonumber(ARGV[2]))
-- The common case first: a free lock is taken in one call.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if waiter ~= '' and ARGV[7] == '1' then
    -- served: out of line (a manager with more callers waiting queues the next one anew)
    redis.call('ZREM', KEYS[3], waiter)
    redis.call('HDEL', KEYS[4], waiter)
  end
  return {1, nextFence(retention)}
end
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  -- handed to us: the fence counter has not moved since (only an acquisition moves it)
  local fence = tonumber(redis.call('GET', KEYS[2]) or '0')
  if fence == 0 then fence = nextFence(retention) end
  return {1, fence, redis.call('PTTL', KEYS[1])}
end
if waiter == '' then return {0, redis.call('PTTL', KEYS[1])} end
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZADD', KEYS[3], 'NX', now[1] * 1000000 + now[2], waiter)
redis.call('HSET', KEYS[4], waiter, string.format('%s %d %d', ARGV[1], ARGV[2], ms + ARGV[5]))
redis.call('PEXPIRE', KEYS[3], ARGV[6])
redis.call('PEXPIRE', KEYS[4], ARGV[6])
return {0, redis.call('PTTL', KEYS[1]), ms}
