-- Extend (renew): reset the expiry only if the lock still holds our token.
--   KEYS[1] lock key   ARGV[1] token   ARGV[2] new ttl ms
-- Returns 1 when extended, 0 when the lock is no longer ours.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
