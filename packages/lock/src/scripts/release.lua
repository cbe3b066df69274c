-- Release: give up the lock only if it still holds our token, and hand it to the first manager
-- in line, if any: the lock is reserved for it for a moment and it is told on its channel.
--   KEYS[1] lock   KEYS[2] line (sorted set of waiting managers)
--   ARGV[1] token   ARGV[2] channel prefix (manager id appended)   ARGV[3] reservation ms
-- Returns 1 when released, 0 when the lock is no longer ours (expired, or another holder's):
-- then nothing is changed. Reading, comparing and writing in one script leaves no gap in which
-- the lock could expire and be taken by someone else between our check and our delete.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local next = redis.call('ZPOPMIN', KEYS[2])
if next[1] then
  redis.call('SET', KEYS[1], 'reserved:' .. next[1], 'PX', ARGV[3])
  redis.call('PUBLISH', ARGV[2] .. next[1], KEYS[1])
else
  redis.call('DEL', KEYS[1])
end
return 1
