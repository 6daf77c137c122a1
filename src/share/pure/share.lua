-- retry's shared state on Redis: the rules of share.c, decision for
-- decision, run atomically by the server.  One hash per name, KEYS[1] =
-- retry:NAME:state, that expires a window after its last use or after
-- what it holds ahead (an open circuit, a probe, a not-before).  Tokens
-- are computed with share.c's operations in share.c's order, so that
-- both come to the same double; times are in microseconds of the
-- server's clock.
--
-- ARGV: op ("gate", "record", "hedge" or "leave"), the member, the budget's N and
-- R in thousandths, the breaker's trip (0: none), cooldown and lease (us),
-- give up while open (1) or wait (0), success (1 or 0), the not-before
-- the attempt's output asked for (us from now, or -1), the time (us;
-- empty: the server's TIME), whether the run would retry (1 or 0), and
-- the budget's window (us).
--
-- Answers: gate {what, why, wait in us, corrupt}; record {retry, opened,
-- closed, tokens in thousandths, corrupt}, and hedge the same (a token
-- taken, no failure counted); leave {corrupt}.  what: 0 go,
-- 1 probe, 2 wait, 3 give up; why: 0 none, 1 open, 2 probe, 3
-- not-before.  corrupt: 1 when the hash was not a state and started
-- afresh.

local key, op, me = KEYS[1], ARGV[1], ARGV[2]
local max, ratio, trip = tonumber(ARGV[3]) / 1000,
    tonumber(ARGV[4]) / 1000, tonumber(ARGV[5])
local cooldown, lease = tonumber(ARGV[6]), tonumber(ARGV[7])
local give_up, success = ARGV[8] == '1', ARGV[9] == '1'
local asked, now = tonumber(ARGV[10]), tonumber(ARGV[11])
local want, window = ARGV[12] == '1', tonumber(ARGV[13])
local POLL, NOT_BEFORE_MAX = 250000, 3600000000

if not now then
	local t = redis.call('TIME')
	now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end

local FIELDS = { 'tokens', 'failures', 'breaker', 'open-until', 'probe',
    'probe-until', 'not-before', 'tokens-changed', 'failures-changed',
    'breaker-changed', 'not-before-changed' }
local BREAKERS = { closed = true, open = true, ['half-open'] = true }

local function fresh()
	return { tokens = max, failures = 0, breaker = 'closed',
	    ['open-until'] = 0, probe = '0', ['probe-until'] = 0,
	    ['not-before'] = 0, ['tokens-changed'] = now,
	    ['failures-changed'] = now, ['breaker-changed'] = now,
	    ['not-before-changed'] = now }
end

-- The hash as a state: nil when it is not one.
local function read(h)
	local s = {}
	for i = 1, #h, 2 do s[h[i]] = h[i + 1] end
	for _, f in ipairs(FIELDS) do
		local v = s[f]
		if v == nil then return nil end
		if f == 'breaker' then
			if not BREAKERS[v] then return nil end
		elseif f == 'probe' then
			if not string.match(v, '^%d+$') then return nil end
		else
			-- Past 2^53 a number is no longer exact, nor a
			-- time that EXPIRE takes (share.c refuses it too).
			v = tonumber(v)
			if v == nil or v < 0 or v ~= v or v > 9007199254740992 then
				return nil
			end
			s[f] = v
		end
	end
	return s
end

-- A key of another type is no state either: it starts afresh.
local h, corrupt = redis.pcall('HGETALL', key), 0
if h.err then
	redis.call('DEL', key)
	h, corrupt = {}, 1
end
local s = read(h)
if s == nil then
	if #h > 0 then corrupt = 1 end
	s = fresh()
end

local function write()
	local args = {}
	for _, f in ipairs(FIELDS) do
		local v = s[f]
		if f == 'tokens' then
			v = string.format('%.17g', v)
		elseif type(v) == 'number' then
			v = string.format('%.0f', v)
		end
		args[#args + 1] = f
		args[#args + 1] = v
	end
	redis.call('HSET', key, unpack(args))
	local ahead = math.max(0, s['open-until'] - now,
	    s['probe-until'] - now, s['not-before'] - now)
	redis.call('PEXPIRE', key, math.ceil((ahead + window) / 1000))
end

local function hold(f, most)
	if s[f] > now and s[f] - now > most then s[f] = now + most end
end

-- A state whose every part is a window old, with nothing ahead of it, is
-- dropped.  A change time past now (a clock set back) counts as now, and
-- is kept so; what lies ahead counts only as far as the member's own
-- rules allow.
local function expire()
	local last = 0
	for _, f in ipairs({ 'tokens-changed', 'failures-changed',
	    'breaker-changed', 'not-before-changed' }) do
		if s[f] > now then s[f] = now end
		last = math.max(last, s[f])
	end
	hold('not-before', NOT_BEFORE_MAX)
	last = math.max(last, s['not-before'])
	if trip > 0 then
		hold('open-until', cooldown)
		hold('probe-until', lease)
	end
	last = math.max(last, s['open-until'], s['probe-until'])
	if now - last >= window then s = fresh() end
end

-- A token is taken to a millionth, as share.c takes it.
local function millionths(t)
	return math.floor(t * 1e6 + 0.5)
end

-- The tokens now: what was left, and what came back since.
local function tokens()
	local since, t = now - s['tokens-changed'], math.min(s.tokens, max)
	if since <= 0 then return t end
	if since >= window then return max end
	return math.min(max, t + max * (since / window))
end

local function set_breaker(b)
	s.breaker, s.probe, s['probe-until'] = b, '0', 0
	s['breaker-changed'] = now
end

-- The breaker's part of the gate: an answer, or nil to go on.
local function breaker_gate()
	if s.breaker == 'open' and now < s['open-until'] then
		if give_up then return { 3, 1, 0 } end
		return { 2, 1, s['open-until'] - now }
	end
	if s.breaker == 'open' then set_breaker('half-open') end
	if s.breaker == 'half-open' and s.probe ~= '0' and s.probe ~= me and
	    now < s['probe-until'] then
		if give_up then return { 3, 2, 0 } end
		return { 2, 2, math.min(s['probe-until'], now + POLL) - now }
	end
	return nil
end

local function gate()
	-- Times held to the member's rules too.
	expire()
	if trip > 0 then
		local a = breaker_gate()
		if a then return a end
	end
	if now < s['not-before'] then
		return { 2, 3, s['not-before'] - now }
	end
	if trip > 0 and s.breaker == 'half-open' then
		s.probe, s['probe-until'] = me, now + lease
		s['breaker-changed'] = now
		return { 1, 0, 0 }
	end
	return { 0, 0, 0 }
end

local function record()
	expire()
	local probe = s.breaker == 'half-open' and s.probe == me
	local opened, closed, retry = 0, 0, 0

	-- Runs that give the name another N meet in [0, N].
	s.tokens = tokens()
	if success then
		s.tokens = math.min(max, s.tokens + ratio)
		s.failures = 0
	else
		if want and millionths(s.tokens) >= 1e6 then
			s.tokens = math.max(0, s.tokens - 1)
			retry = 1
		end
		s.failures = s.failures + 1
	end
	s['tokens-changed'], s['failures-changed'] = now, now
	if probe and success then
		set_breaker('closed')
		closed = 1
	elseif trip > 0 and not success and (probe or
	    (s.breaker == 'closed' and s.failures >= trip)) then
		set_breaker('open')
		s['open-until'] = now + cooldown
		opened = 1
	end
	if asked >= 0 and now + asked > s['not-before'] then
		s['not-before'] = now + asked
		s['not-before-changed'] = now
	end
	-- Thousandths, down, as share_shown shows them.
	return { retry, opened, closed,
	    math.floor(millionths(s.tokens) / 1000) }
end

local a
if op == 'gate' then
	a = gate()
elseif op == 'record' then
	a = record()
elseif op == 'hedge' then
	-- An attempt beside one in flight: a retry's token, no failure.
	expire()
	s.tokens = tokens()
	local retry = 0
	if millionths(s.tokens) >= 1e6 then
		s.tokens = math.max(0, s.tokens - 1)
		retry = 1
	end
	s['tokens-changed'] = now
	a = { retry, 0, 0, math.floor(millionths(s.tokens) / 1000) }
elseif op == 'leave' then
	if s.breaker == 'half-open' and s.probe == me then
		s.probe, s['probe-until'] = '0', 0
		s['breaker-changed'] = now
	else
		return { corrupt }
	end
	a = {}
else
	return redis.error_reply('retry: unknown op ' .. tostring(op))
end
write()
a[#a + 1] = corrupt
return a
