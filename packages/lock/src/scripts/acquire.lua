-- Acquire: take the lock if it is free (or was handed to us), with a millisecond expiry and a
-- fencing number, in one atomic step; otherwise say how long it stays taken and, for a caller
-- that will wait, put its manager in line.
--   KEYS[1] lock    {ns:lock:kind:id}           value: the holder's token, or "reserved:<manager>"
--   KEYS[2] fence   {ns:lock:kind:id}:fence     same hash tag, so the same Cluster slot
--   KEYS[3] line    {ns:lock:kind:id}:queue     sorted set: managers waiting, by arrival
--   ARGV[1] token (random, from the caller)   ARGV[2] ttl ms   ARGV[3] fence retention ms
--   ARGV[4] manager id when the caller waits in line, '' when it tries once
--   ARGV[5] '1' when that manager has more callers waiting for this lock after this one
--   ARGV[6] how long the line is kept after the last arrival (ms)
-- Returns {1, fence} when acquired, {0, pttl} when taken (pttl < 0: the holder set no expiry).
local waiter = ARGV[4]
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= 'reserved:' .. waiter then
  if waiter ~= '' then
    local now = redis.call('TIME')
    redis.call('ZADD', KEYS[3], 'NX', now[1] * 1000000 + now[2], waiter)
    redis.call('PEXPIRE', KEYS[3], ARGV[6])
  end
  return {0, redis.call('PTTL', KEYS[1])}
end

redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if waiter ~= '' then
  if ARGV[5] == '1' then
    -- back of the line: the other processes waiting go first, so none starves
    local now = redis.call('TIME')
    redis.call('ZADD', KEYS[3], 'NX', now[1] * 1000000 + now[2], waiter)
  else
    redis.call('ZREM', KEYS[3], waiter)
  end
end

-- The fence grows by one per acquisition. The counter expires after ARGV[3] ms without one, so
-- idle resources cost no memory for ever; a missing counter (new resource, or expired) is seeded
-- from the server clock in microseconds, which is larger than any fence handed out before unless
-- the clock went back by more than the retention time (or more than a million locks a second
-- were taken on this one resource all along).
local fence = redis.call('INCR', KEYS[2])
if fence == 1 then
  local now = redis.call('TIME')
  fence = tonumber(now[1]) * 1000000 + tonumber(now[2])
  redis.call('SET', KEYS[2], string.format('%d', fence))
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {1, fence}
