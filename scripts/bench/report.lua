-- Appended to every wrk script of scripts/bench.sh: prints the run's figures on one line that
-- the script reads (latencies in microseconds).
function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d p50_us=%d p99_us=%d status_errors=%d socket_errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50.0), latency:percentile(99.0),
    errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
