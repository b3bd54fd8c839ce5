#!/usr/bin/env bash
# Runs `swift test ARGS…` with a limit on the whole test process (TEST_PROCESS_LIMIT_SECONDS, 1200 by default;
# a run takes about a minute). Every suite has a time limit, but an await that ignores cancellation outlives it,
# and a hung process would run until CI's own limit with its last lines lost in a pipe's buffer. Past the limit
# this names the tests that started and never ended, prints every thread's backtrace (gdb), kills the process
# and fails.
set -uo pipefail
limit=${TEST_PROCESS_LIMIT_SECONDS:-1200}
log=$(mktemp /tmp/swift-test-watchdog.XXXXXX)
# The run's own temporary directory (TMPDIR, like /tmp: sticky and open to the test's PostgreSQL user), removed
# with everything the tests left in it: the stores, clusters, browser profiles and Foundation's atomic-write
# directories of one run were ~100 MB, and a crashed or killed run removes nothing itself. Short: PostgreSQL's
# socket path under it must stay within 107 bytes.
run_tmp=$(mktemp -d /tmp/pbt.XXXXXX)
chmod 1777 "$run_tmp"
trap 'rm -f "$log"; rm -rf "$run_tmp"' EXIT

TMPDIR=$run_tmp "${SWIFT:-swift}" test "$@" > >(tee "$log") 2>&1 &
runner=$!
# The processes under `swift test` (the test binary among them), not another run's on the same machine.
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}
start=$(date +%s)
while kill -0 "$runner" 2>/dev/null; do
  if (($(date +%s) - start > limit)); then
    echo "swift-test-watchdog: the test process ran past ${limit} s (TEST_PROCESS_LIMIT_SECONDS): it hangs."
    echo "swift-test-watchdog: tests that started and did not end:"
    python3 - "$log" <<'EOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
started = re.findall(r"◇ Test (.+?) started\.", text)
ended = set(re.findall(r"[✔✘] Test (.+?) (?:passed|failed)", text))
for name in started:
    if name not in ended and not any(e.startswith(name) for e in ended):
        print("  " + name)
EOF
    for pid in $(descendants "$runner"); do
      grep -q xctest "/proc/$pid/cmdline" 2>/dev/null || continue
      echo "swift-test-watchdog: threads of pid $pid:"
      gdb -p "$pid" -batch -ex "thread apply all bt 25" 2>/dev/null | grep -E '^(Thread|#)' | head -400
      kill -9 "$pid" 2>/dev/null
    done
    kill "$runner" 2>/dev/null
    wait "$runner" 2>/dev/null
    exit 124
  fi
  sleep 5
done
wait "$runner"
