import { createHash } from "node:crypto";

/** A Lua script with its SHA-1, for EVALSHA with an EVAL fallback. @internal */
export interface RedisScript {
  source: string;
  sha1: string;
}

function script(source: string): RedisScript {
  return { source, sha1: createHash("sha1").update(source).digest("hex") };
}

/**
 * KEYS[1] key; ARGV[1] "1" when a current value is expected, "0" when the key must be absent;
 * ARGV[2] expected value; ARGV[3] new value; ARGV[4] TTL in ms, "0" for none. Returns 1 when written.
 * GET yields false for a missing key, which never equals a string.
 *
 * @internal
 */
export const COMPARE_AND_SET_SCRIPT = script(`
local current = redis.call("GET", KEYS[1])
if ARGV[1] == "1" then
  if current ~= ARGV[2] then return 0 end
elseif current then
  return 0
end
if ARGV[4] ~= "0" then
  redis.call("SET", KEYS[1], ARGV[3], "PX", ARGV[4])
else
  redis.call("SET", KEYS[1], ARGV[3])
end
return 1
`);

/**
 * KEYS[1] key; ARGV[1] increment; ARGV[2] TTL in ms. INCRBY and PEXPIRE as one atomic step.
 *
 * @internal
 */
export const INCREMENT_WITH_TTL_SCRIPT = script(`
local value = redis.call("INCRBY", KEYS[1], ARGV[1])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return value
`);
