-- The latency sketch of sketch.c, its rule run by Redis: parse, add,
-- text, for each sample in turn, so that both come to the same text byte
-- for byte.  Counts are computed with sketch.c's operations in its order
-- and printed with the same "%.6g"; a bucket's index comes from
-- math.frexp, exactly as sketch.c takes it from the double's bits.
--
-- ARGV: the sketch's text ('': none yet), then durations in ns, each
-- added in turn.  Answers {text, corrupt}: corrupt is 1 when the text
-- given was not a sketch's and it started afresh.

local BUCKETS, KEEP, FLOOR = 32, 1 - 1 / 64, 1e-3
local TEXT_MAX, INDEX_MAX = 384, 1023
local SAMPLES_MAX = '18446744073709551615'

-- exponent * 16 + the top 4 bits of the mantissa; ns <= 0 as 1 ns.
local function index(ns)
	if ns < 1 then ns = 1 end
	local m, e = math.frexp(ns)
	-- ns = m * 2^e, m in [0.5, 1): the exponent is e - 1, and
	-- m * 32 - 16 is the mantissa's fraction times 16, exactly.
	return (e - 1) * 16 + math.floor(m * 32) - 16
end

-- A whole number without a sign or a leading zero, as a string, at most
-- max (a string of digits too).
local function whole(tok, max)
	if not string.find(tok, '^%d+$') or
	    (#tok > 1 and string.sub(tok, 1, 1) == '0') then
		return nil
	end
	if #tok > #max or (#tok == #max and tok > max) then return nil end
	return tok
end

-- A number as "%.6g" prints it, finite and not negative.
local function number(tok)
	if not string.find(tok, '^%d') then return nil end
	local v = tonumber(tok)
	if v == nil or v ~= v or v >= math.huge or
	    string.format('%.6g', v) ~= tok then
		return nil
	end
	return v
end

-- One more sample, held at SAMPLES_MAX: the count as a string, exact.
local function increment(samples)
	if samples == SAMPLES_MAX then return samples end
	local i = #samples
	while i > 0 and string.sub(samples, i, i) == '9' do i = i - 1 end
	local tail = string.rep('0', #samples - i)
	if i == 0 then return '1' .. tail end
	local d = string.byte(samples, i) - string.byte('0') + 1
	return string.sub(samples, 1, i - 1) .. string.char(
	    string.byte('0') + d) .. tail
end

local function text_of(s)
	local parts = { s.samples, string.format('%.6g', s.total) }
	for i = 1, #s.b do
		parts[#parts + 1] = string.format('%d:%.6g', s.b[i].index,
		    s.b[i].count)
	end
	return table.concat(parts, ' ')
end

-- nil when the text is not a sketch's.
local function parse(text)
	if #text >= TEXT_MAX or string.find(text, '^ ') or
	    string.find(text, ' $') or string.find(text, '  ') then
		return nil
	end
	local toks = {}
	for tok in string.gmatch(text, '[^ ]+') do toks[#toks + 1] = tok end
	if #toks < 2 or #toks > 2 + BUCKETS then return nil end
	local s = { samples = whole(toks[1], SAMPLES_MAX),
	    total = number(toks[2]), b = {} }
	if s.samples == nil or s.total == nil then return nil end
	local last = -1
	for i = 3, #toks do
		local a, c = string.match(toks[i], '^([^:]*):(.*)$')
		if a == nil then return nil end
		a = whole(a, tostring(INDEX_MAX))
		a = a and tonumber(a)
		c = number(c)
		if a == nil or a > INDEX_MAX or a <= last or c == nil or
		    c < FLOOR then
			return nil
		end
		last = a
		s.b[#s.b + 1] = { index = a, count = c }
	end
	return s
end

-- The lowest two buckets merged into the higher one while more than
-- BUCKETS are live or the text would not fit.
local function collapse(s)
	while #s.b >= 2 and (#s.b > BUCKETS or #text_of(s) >= TEXT_MAX) do
		s.b[2].count = s.b[2].count + s.b[1].count
		table.remove(s.b, 1)
	end
end

local function add(s, ns)
	local x = index(ns)
	for i = 1, #s.b do s.b[i].count = s.b[i].count * KEEP end
	s.total = s.total * KEEP + 1
	s.samples = increment(s.samples)
	local i = 1
	while i <= #s.b and s.b[i].index < x do i = i + 1 end
	if i <= #s.b and s.b[i].index == x then
		s.b[i].count = s.b[i].count + 1
	else
		table.insert(s.b, i, { index = x, count = 1 })
	end
	local kept = {}
	for j = 1, #s.b do
		if not (s.b[j].count < FLOOR) then kept[#kept + 1] = s.b[j] end
	end
	s.b = kept
	collapse(s)
end

local text, corrupt = ARGV[1], 0
for k = 2, #ARGV do
	local s = nil
	if text ~= '' then
		s = parse(text)
		if s == nil then corrupt = 1 end
	end
	s = s or { samples = '0', total = 0, b = {} }
	local ns = tonumber(ARGV[k])
	if ns == nil then return redis.error_reply('not a duration in ns') end
	add(s, ns)
	text = text_of(s)
end
return { text, corrupt }
