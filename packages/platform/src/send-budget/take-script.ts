// The send budget's Lua: one script per take, so checking every limit and recording the send is
// one atomic step shared by every instance. A small sliding-window log rather than a package:
// rate-limiter-flexible and the like limit one key per call, with no priorities and no shared
// pause, and a take here must check the pause, the bot's window and the chat's window together.
// Time is the Redis server's (TIME), so instances' clocks never disagree about a window.
import { LuaScript } from "@orderbot/lock";

/**
 * KEYS pause, global window, chat window; ARGV member, global limit (for this priority), global
 * window ms, chat limit, chat window ms, in-flight ms. {1, 0}: taken and recorded; {0, waitMs,
 * reason}: not taken, try again after waitMs ("paused", "global" or "chat"). A place is recorded
 * at now + in-flight (the call's deadline) until `answered` moves it to its answer: a call still
 * in flight holds its place, so a window starts only once Telegram has surely received the call.
 */
export const takeScript = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local paused = redis.call('PTTL', KEYS[1])
if paused > 0 then return {0, paused, 'paused'} end
local function wait(key, limit, window)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local n = redis.call('ZCARD', key)
  if n < limit then return 0 end
  local edge = tonumber(redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')[2])
  if edge > now then return 25 end
  return math.max(1, edge + window - now)
end
local g = wait(KEYS[2], tonumber(ARGV[2]), tonumber(ARGV[3]))
if g > 0 then return {0, g, 'global'} end
local c = wait(KEYS[3], tonumber(ARGV[4]), tonumber(ARGV[5]))
if c > 0 then return {0, c, 'chat'} end
local held = now + tonumber(ARGV[6])
redis.call('ZADD', KEYS[2], held, ARGV[1])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]) + tonumber(ARGV[6]))
redis.call('ZADD', KEYS[3], held, ARGV[1])
redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[5]) + tonumber(ARGV[6]))
return {1, 0}
`);

/** KEYS pause; ARGV ms. Lengthens the pause to ms from now, never shortens it. Returns its PTTL. */
export const pauseScript = new LuaScript(`
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
  return tonumber(ARGV[1])
end
return left
`);

/**
 * KEYS global window, chat window; ARGV member. Moves a taken place to the time its call was
 * answered: Telegram received the call before that, so counting windows from answers keeps every
 * window whole where Telegram counts, whatever the call's latency. A place already gone is left.
 */
export const answeredScript = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now, ARGV[1])
end
return 1
`);
