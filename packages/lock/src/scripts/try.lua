-- Try: take the lock if it is free, with a millisecond expiry and a fencing number, in one atomic
-- step; otherwise say how long it stays taken. The first attempt of every caller: most locks are
-- free when asked for, and this is all it takes then. A caller that will wait and finds the lock
-- taken asks again with acquire.lua, which also puts it in line.
--   KEYS[1] lock     {ns:lock:kind:id}           value: the holder's token
--   KEYS[2] fence    {ns:lock:kind:id}:fence     same hash tag, so the same Cluster slot
--   ARGV[1] token (random, from the caller)   ARGV[2] ttl ms   ARGV[3] fence retention ms
--   (at least the TTL is used)
-- Returns {1, fence} when acquired, {0, pttl} when taken (pttl < 0: the holder set no expiry).
-- nextFence: fence.lua, sent in front of this script.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1, nextFence(math.max(tonumber(ARGV[3]), tonumber(ARGV[2])))}
end
return {0, redis.call('PTTL', KEYS[1])}
