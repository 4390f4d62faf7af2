-- Appended to scripts/bench/write.lua for the API-created memory measure of scripts/bench.sh:
-- each thread stops after BENCH_WRITE_LIMIT answers.
local limit = tonumber(os.getenv("BENCH_WRITE_LIMIT") or "0")
local answered = 0

function response(status, headers, body)
  answered = answered + 1
  if limit > 0 and answered >= limit then
    wrk.thread:stop()
  end
end
