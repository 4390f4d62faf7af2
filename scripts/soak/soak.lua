-- One kind of request of scripts/soak.sh. Each request picks one of SOAK_PATHS (separated by
-- "|") at random; with SOAK_BODY it is a POST of that body as SOAK_AUTH, every "@" in the body
-- replaced by a token unique to the request. Reports like scripts/bench/report.lua.
local paths = {}
for path in string.gmatch(os.getenv("SOAK_PATHS") or "/", "[^|]+") do
  paths[#paths + 1] = path
end
local body = os.getenv("SOAK_BODY")
local auth = os.getenv("SOAK_AUTH")
local next_thread = 1
local counter = 0

function setup(thread)
  thread:set("thread_number", next_thread)
  next_thread = next_thread + 1
end

function init(args)
  math.randomseed(os.time() + (thread_number or 0) * 7919)
end

function request()
  local path = paths[math.random(#paths)]
  if body == nil or body == "" then
    return wrk.format("GET", path)
  end
  counter = counter + 1
  local token = string.format("%d-%d", thread_number or 0, counter)
  local headers = { ["Content-Type"] = "application/json", ["Authorization"] = auth }
  return wrk.format("POST", path, headers, (body:gsub("@", token)))
end
