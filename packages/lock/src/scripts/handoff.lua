-- Leave the line: a manager whose last waiter for this lock gave up (timeout, abort), or that
-- was handed the lock with nobody left to take it, steps out; if the lock was reserved for it,
-- or is free, it goes to the next manager in line.
--   KEYS[1] lock   KEYS[2] line
--   ARGV[1] manager id   ARGV[2] channel prefix   ARGV[3] reservation ms
-- Returns 1 when the lock was passed on, 0 otherwise.
redis.call('ZREM', KEYS[2], ARGV[1])
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= 'reserved:' .. ARGV[1] then
  return 0
end
local next = redis.call('ZPOPMIN', KEYS[2])
if not next[1] then
  if holder then redis.call('DEL', KEYS[1]) end
  return 0
end
redis.call('SET', KEYS[1], 'reserved:' .. next[1], 'PX', ARGV[3])
redis.call('PUBLISH', ARGV[2] .. next[1], KEYS[1])
return 1
