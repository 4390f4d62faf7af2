-- Writes for scripts/bench.sh: POSTs BENCH_WRITE_BODY to BENCH_WRITE_PATH with the
-- Authorization header BENCH_WRITE_AUTH. Every "@" in the body becomes a token unique to the
-- request (thread number and counter), so each create has its own title and slug.
local next_thread = 1

function setup(thread)
  thread:set("thread_number", next_thread)
  next_thread = next_thread + 1
end

local counter = 0
local path = os.getenv("BENCH_WRITE_PATH")
local template = os.getenv("BENCH_WRITE_BODY")
local headers = {
  ["Content-Type"] = "application/json",
  ["Authorization"] = os.getenv("BENCH_WRITE_AUTH"),
}

function request()
  counter = counter + 1
  local token = string.format("%d-%d", thread_number or 0, counter)
  local body = template:gsub("@", token)
  return wrk.format("POST", path, headers, body)
end
