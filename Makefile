# Pushbutton — the two set-up commands are `make demo` and `make test`; both install what they need.
SWIFT ?= swift
FUZZ_SECONDS ?= 60
BIN := .build/debug/pushbutton
DEMO_DIR := .build/demo
# make test builds with warnings as errors, as swift-log's CI does (`make test WARNINGS_AS_ERRORS=` to build
# without, e.g. to see every warning of a change at once).
WARNINGS_AS_ERRORS ?= -Xswiftc -warnings-as-errors

.PHONY: stats-check deps build demo demo-server test test-tsan bench bench-gateway soak gateway-crash gateway-rolling format lint fuzz api-fuzz chaos release clean codegen-examples dist dist-test

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build

# The main job: the whole path on this machine (mock APNs, sender, simulated device, outbox), keeping its
# files in .build/demo for the other commands. Each run replaces the previous run's files there, so it
# passes every time (CI runs it twice in a row).
demo: build
	@$(BIN) demo --keep $(DEMO_DIR)

# The gateway on SQLite in front of the mock APNs: register a device, post a notification with buttons, read its
# outcome, see a validation error; every request shown as its curl command (files in .build/demo-server).
demo-server: build
	@scripts/demo-server.sh .build/demo-server

# At most TEST_WIDTH tests run at once (Swift Testing's SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH; unbounded
# by default). Unbounded, all 600 sanitized tests started together on 2 cores and each crawled: CI's thread-
# sanitizer run took 200 s and 69 tests passed their 2-minute limits; with 8 at a time the same build passed in
# 105 s, and `make test` in 67 s instead of 95.
TEST_WIDTH ?= 8
TEST_WIDTH_ENV := SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH)
test: deps
	@# Builds the snippets too (Snippets/, Swift 6, against the UserNotifications stand-in): a snippet that stops
	@# compiling fails here; snippet_check.py fails on a ```swift block left in the iOS developer's articles.
	$(SWIFT) build $(WARNINGS_AS_ERRORS)
	python3 scripts/snippet_check.py
	python3 scripts/availability_check.py && python3 -m unittest -q scripts/test_availability_check.py
	@# Public API of the shipped products without /// may not grow (swift-format's documentation rule counts it).
	python3 scripts/doc_coverage.py
	@# One test process, under a watchdog: past 20 minutes (a run takes two to four) it names the tests still
	@# running, prints the threads' backtraces and fails, instead of hanging until CI's limit. The sender's and the
	@# mock's retries and request deadlines run on manual clocks, so suites that block Swift's two-thread pool
	@# meanwhile (CLI tests run the CLI synchronously) delay them but time nothing out.
	$(TEST_WIDTH_ENV) SWIFT=$(SWIFT) scripts/swift-test-watchdog.sh $(WARNINGS_AS_ERRORS) --disable-xctest

# Benchmarks print a table comparing Pushbutton with a peer in the same run.
# The concurrent parts under the thread sanitizer: the receiving side (router, registry, simulator) and
# the sender with the mock APNs (event loops, callbacks, retries, the soak).
# One process, as `make test`; the fault tests' request deadlines run on manual clocks, so the sanitizer's
# slowdown times nothing out. scripts/tsan-suppressions.txt says what is suppressed and why.
TSAN_ENV := TSAN_OPTIONS="suppressions=$(CURDIR)/scripts/tsan-suppressions.txt halt_on_error=0"
test-tsan: deps
	$(TSAN_ENV) $(TEST_WIDTH_ENV) SWIFT=$(SWIFT) scripts/swift-test-watchdog.sh --disable-xctest --sanitize=thread \
		--filter "PushbuttonReceiverTests|PushbuttonUserNotificationsTests|PushbuttonStoreTests|PushbuttonGatewayTests|PushbuttonAPNsTests|PushbuttonAPNsMockTests"

bench: deps
	@Benchmarks/payload-throughput.sh
	@Benchmarks/outbox-throughput.sh
	@Benchmarks/apns-throughput.sh

# The gateway's API intake (wrk over HTTP/1.1, h2load over HTTP/2) and a campaign's end-to-end rate against
# pushbutton send of the same list, on SQLite and PostgreSQL, with the server's peak memory.
bench-gateway: deps
	@Benchmarks/gateway-throughput.sh

# Three pushbutton serve processes on one PostgreSQL (and one on SQLite) killed with SIGKILL during a
# 100,000-recipient campaign (make test runs the same test with 4,000).
gateway-crash: deps
	$(SWIFT) build
	PUSHBUTTON_GATEWAY_CRASH_COUNT=$${CRASH_COUNT:-100000} $(SWIFT) test --disable-xctest --filter GatewayCrashTests

# Two pushbutton serve processes on one PostgreSQL restarted three times with SIGTERM during a 50,000-recipient
# campaign: no apns-id sent twice (make test runs the same test with 3,000).
gateway-rolling: deps
	$(SWIFT) build
	PUSHBUTTON_GATEWAY_ROLLING_COUNT=$${ROLLING_COUNT:-50000} $(SWIFT) test --disable-xctest --filter GatewayRollingRestartTests

# The sender against the mock APNs with every fault enabled, 100,000 notifications (a few minutes).
# In a process of its own, so the resident memory it bounds (growth < 32 MiB) is the sender's and the mock's; CI
# runs it after make test (same build flags: nothing is rebuilt).
soak: deps
	PUSHBUTTON_SOAK_COUNT=$${SOAK_COUNT:-100000} $(SWIFT) test $(WARNINGS_AS_ERRORS) --disable-xctest --filter SoakTests

# The experiment statistics against SciPy (issue 36): recompute the fixture the Swift suite compares with and fail
# when SciPy disagrees with the committed numbers to 4 significant digits, then run the suite. Needs scipy
# (pip install scipy); make test does not (it reads the committed fixture).
stats-check:
	python3 scripts/experiment_stats_check.py --check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --filter "ExperimentStatisticsTests"

format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Fuzz Benchmarks Package.swift

lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Fuzz Benchmarks Package.swift
	@# Foundation's Process.run() can crash on Linux (see Sources/PushbuttonSupport/ChildProcess.swift).
	@! grep -rnE '(^|[^A-Za-z])Process\(\)' Sources Tests Benchmarks --include=*.swift \
		|| { echo "lint: use ChildProcess, not Foundation's Process (see ChildProcess.swift)" >&2; exit 1; }
	@# FileHandle's whole-pipe reads trap on EINTR on Linux (see Sources/PushbuttonSupport/DescriptorReader.swift).
	@! grep -rnE 'readDataToEndOfFile|\.availableData' Sources Tests Benchmarks --include=*.swift \
		|| { echo "lint: use DescriptorReader, not FileHandle's readDataToEndOfFile/availableData" >&2; exit 1; }

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# schemathesis against the gateway (SQLite, mock APNs) from Documentation/openapi.json with the secret and the
# publishable key, then a Python client generated from the same document (scripts/api-fuzz.sh; about 3 minutes).
api-fuzz: build
	@scripts/api-fuzz.sh .build/api-fuzz

# Network faults (root: ip netns, veth, iptables): 1 ms to PostgreSQL and 30 ms to APNs throughout (a delaying relay,
# scripts/delay_relay.py), then four campaigns shared by gateway B and gateway A in a namespace: delays only, 5% packet
# loss on A's links, A cut from PostgreSQL for 20 s, A's link to APNs black-holed for 20 s. Every recipient must end
# with one final outcome, none failed, and the mock's repeats stay within the refused late outcomes (and, where APNs
# was cut, the inconclusive attempts) (scripts/chaos-network.sh; 72–103 s at load 4–15, 172 s at load 19–25).
chaos: build
	python3 -m unittest -q scripts/test_delay_relay.py
	@scripts/chaos-network.sh .build/chaos

release: deps
	$(SWIFT) build -c release

# Release artefacts in dist/: the tarball (Swift runtime linked in), the .deb (systemd unit, user, conffile) and
# an OCI image archive, built without Docker (scripts/dist.sh says how).
dist: deps
	@scripts/dist.sh

# The artefacts installed and run as users would: the .deb and the tarball in a fresh mmdebstrap rootfs, the
# image in podman against a mock APNs, the Kubernetes manifests validated offline (scripts/dist-test.sh).
dist-test: dist
	@scripts/dist-test.sh

clean:
	rm -rf .build .fuzz dist

# Regenerates the codegen golden files that the test target compiles (after changing the generator).
codegen-examples: build
	$(BIN) codegen Examples/manifest.json -o Tests/PushbuttonCLITests/Generated --type-name ExampleNotificationCategories --no-strings
	$(BIN) codegen Examples/legacy-manifest.json -o Tests/PushbuttonCLITests/Generated --type-name LegacyNotificationCategories --no-strings
