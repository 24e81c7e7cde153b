-- wrk script for bench_api.py.
--   BENCH_MODE=rounds: POST /api/v1/matches/{id}/rounds with token auth, a unique Idempotency-Key per request
--                      and the matches in BENCH_MATCHES taken in turn (each thread starts at its own offset);
--   BENCH_MODE=ping:   GET /ping (the bare JSON endpoint served by the same stack; BENCH_BASELINE overrides).
-- done() prints one line "BENCH_JSON {...}" with the counts, the status codes and the latency percentiles.

local mode = os.getenv("BENCH_MODE") or "ping"
local token = os.getenv("BENCH_TOKEN") or ""
local run = os.getenv("BENCH_RUN") or "run"
local baseline = os.getenv("BENCH_BASELINE") or "/ping"
local ids = {}
for id in string.gmatch(os.getenv("BENCH_MATCHES") or "", "%d+") do
  ids[#ids + 1] = id
end

local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  threads[#threads + 1] = thread
end

local counter = 0
statuses = {}

function request()
  if mode == "ping" then
    return wrk.format("GET", baseline, { ["Accept"] = "application/json" })
  end
  counter = counter + 1
  local c = counter
  local match = ids[((tid * 7919) + c) % #ids + 1]
  local body = string.format(
    '{"facts": {"front": [%d, %d, 4], "hand": [0, %d, %d], "end": "out"}}',
    8 + c % 7, 5 + c % 3, 1 + c % 4, 2 + c % 5
  )
  local headers = {
    ["Authorization"] = "Token " .. token,
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json",
    ["Idempotency-Key"] = string.format("%s-%d-%d", run, tid, c),
  }
  return wrk.format("POST", "/api/v1/matches/" .. match .. "/rounds", headers, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local found = thread:get("statuses")
    for status, n in pairs(found) do
      total[status] = (total[status] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(total) do
    parts[#parts + 1] = string.format('"%d": %d', status, n)
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"mode": "%s", "requests": %d, "duration_us": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, ' ..
    '"max_us": %d, "errors": {"connect": %d, "read": %d, "write": %d, "timeout": %d, "status": %d}, ' ..
    '"statuses": {%s}}\n',
    mode, summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.timeout, e.status, table.concat(parts, ", ")
  ))
end
