# shotfarm: `make run` starts the embedded service, `make test` runs everything CI runs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# What the browsers need on Debian 12. Browsers cannot be downloaded by npm tools here, so Debian's are used.
# prometheus: its promtool checks and unit-tests monitoring/alerts.yml (test/unit/monitoring.test.ts).
SYSTEM_PACKAGES := chromium chromium-driver firefox-esr ffmpeg fonts-noto-color-emoji fonts-noto-cjk prometheus
# What the container tests need: podman (with runc: this machine's hybrid cgroups make crun refuse), its
# compose, and debootstrap for the stand-in base images (test/containers/standin-images.sh).
CONTAINER_PACKAGES := podman runc podman-compose debootstrap
# This sandbox refuses the ulimits podman sets by default; a drop-in so no other containers.conf is touched.
CONTAINERS_CONF := /etc/containers/containers.conf.d/shotfarm-tests.conf
# Where the tests find Postgres: the local socket, as root (the test harness creates throwaway databases).
PG_SOCKET_DIR := /var/run/postgresql

.PHONY: help system-deps container-deps build run lint test test-unit test-services test-image test-containers clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

system-deps: ## install the browsers, ffmpeg and fonts with apt when missing
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

container-deps: ## install podman, runc, podman-compose and debootstrap with apt when missing (container tests)
	@missing=$$(for p in $(CONTAINER_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@if [ ! -f $(CONTAINERS_CONF) ]; then \
	  mkdir -p $(dir $(CONTAINERS_CONF)) && printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n' > $(CONTAINERS_CONF); \
	fi

# `npm install` honours package-lock.json; `npm ci` is not used because npm 11 rejects this lock file over
# the platform bindings of unrs-resolver (an optional dependency of the lint resolvers) that it lists.
node_modules/.package-lock.json: package.json package-lock.json
	npm install --no-fund --no-audit

build: node_modules/.package-lock.json ## install npm dependencies and compile to dist/ (with the plugin SDK's type declarations)
	npx tsc -p tsconfig.json
	npx tsc -p tsconfig.sdk.json
	chmod +x dist/bin/shotfarm.js

run: system-deps build ## install what is missing, build, start the embedded all-in-one service on :8080
	node dist/bin/shotfarm.js serve

# Prettier formats the code (its settings: .prettierrc.json; what it leaves alone: .prettierignore). `npx prettier
# --write .` fixes what the check finds.
LINT = npx eslint . && npx prettier --check .
lint: node_modules/.package-lock.json ## typescript-eslint (including the import layering of ARCHITECTURE.md), then the formatter check
	$(LINT)

test-services: ## start Postgres and NATS (JetStream) for the tests when they are not running
	@if ! pg_isready -q -h $(PG_SOCKET_DIR) 2>/dev/null; then \
	  command -v pg_ctlcluster >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }; \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | head -n1) main start; \
	  for i in $$(seq 1 30); do pg_isready -q -h $(PG_SOCKET_DIR) && break; sleep 1; done; \
	fi
	@# A fresh Debian cluster only knows the postgres role; the tests connect as root over the socket.
	@psql -h $(PG_SOCKET_DIR) -d postgres -c 'select 1' >/dev/null 2>&1 || su postgres -c "psql -q -c 'create role root superuser login'"
	@if ! (exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null; then \
	  command -v nats-server >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null; }; \
	  mkdir -p /var/lib/nats-server; \
	  start-stop-daemon --start --oknodo --background --exec $$(command -v nats-server) -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log; \
	  for i in $$(seq 1 30); do (exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null && break; sleep 1; done; \
	fi

# What a CI run (`bash .ci/run`, a clean clone) is made of, against a budget of 25 minutes (docs/performance.md,
# "CI time"): npm install and the build (tsc, ~30 s quiet), then the lint and the image check side by side (the
# image build is mostly podman copying layers, the lint mostly one core: about 45 s less than one after the
# other), then the suite, nearly all of the time, which runs two test files at a time (.mocharc.cjs) and ends
# with its 12 slowest files and the failed tests' names. The image check's output is printed after the lint's; either failing fails the
# target. MOCHA=true runs everything but the suite.
MOCHA = npx mocha
test: system-deps container-deps build test-services ## build, lint and run every test suite (what CI runs)
	@log=$$(mktemp); ( $(IMAGE_CHECK) ) > $$log 2>&1 & image=$$!; \
	  $(LINT); lint=$$?; wait $$image; image_status=$$?; cat $$log; rm -f $$log; \
	  if [ $$lint -ne 0 ] || [ $$image_status -ne 0 ]; then echo "lint: exit $$lint, image check: exit $$image_status"; exit 1; fi
	$(MOCHA)

# The unit tier: no browser is started (the pool and the capture pipeline run on test/support/fake-browser-driver.ts).
# Measured here on 2 shared cores: 403 tests in 18 s, 58 s with the build (tsc). Naming the files makes
# .mocharc.cjs run just them (not the whole spec); `make test` still runs them with everything else.
test-unit: build ## the fast unit tier (test/unit, under a minute): no browser, no services
	npx mocha 'dist/test/unit/**/*.test.js'

# The container tests run mocha with a TMPDIR of their own: the suite's leak check counts temp folders,
# and other runs on the machine make theirs in /tmp meanwhile. Their images live in podman's storage,
# where the layers stay cached between runs.
CONTAINER_MOCHA = tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && TMPDIR=$$tmp npx mocha --timeout 600000

# CI (`make test`) runs test-image. On a machine without cached layers the image costs 6-10 minutes and the
# farm's stand-ins and test 3-6 more (measured, 2 shared cores): too much on top of the suite in a run that
# must stay under 25 minutes. test-containers is the full check (docs/operators.md).
IMAGE_CHECK = bash test/containers/build-image.sh && $(CONTAINER_MOCHA) dist/test/containers/image.containers.js
test-image: container-deps build ## build the image (Dockerfile) and check it: non-root, Node, size, a capture
	$(IMAGE_CHECK)

test-containers: test-image ## the compose farm too: captures in both browsers, scaling agents, an agent killed; the Kubernetes manifests with podman kube play
	bash test/containers/standin-images.sh
	$(CONTAINER_MOCHA) dist/test/containers/farm.containers.js dist/test/containers/kube.containers.js

clean: ## remove build output
	rm -rf dist

.PHONY: grid
grid: build ## run a local Selenium Grid 4 (Debian's Chromium) in the foreground until Ctrl-C; prints its URL
	node dist/grid/selenium/main.js

.PHONY: bench-batch
bench-batch: build ## benchmark: a 1,000-URL batch in embedded mode, then its ZIP download (time, throughput, memory)
	node dist/test/bench/batch-1000.js 1000

.PHONY: bench-farm
bench-farm: build ## benchmark (~5 min): the control plane without browsers (null-driver agent, 500 slots): creates at rising rates, embedded and distributed with 1 and 2 api replicas; recorded/s, create and enqueue→recorded latency, CPU per capture of api, agent, Postgres, NATS
	node dist/test/bench/farm-capacity.js

.PHONY: bench-registry
bench-registry: build ## benchmark (seconds, needs NATS at 127.0.0.1:4222): one node-registry look-up on NATS with 8 and 50 heartbeating nodes: consumers, subscriptions and JetStream requests per list(), latency, lists missing a node
	node dist/test/bench/registry-list-cost.js 8 200 4
	node dist/test/bench/registry-list-cost.js 50 200 4

.PHONY: bench-tall
bench-tall: build ## benchmark: full page of a 1280 x 100,000 px page in chromium and firefox (time, PNG size, peak RSS of node and browser)
	node dist/test/bench/tall-page.js

.PHONY: bench
bench: build ## benchmark (~7 min): raw Playwright vs shotfarm embedded and distributed, chromium c1/2/4 + firefox, alternating rounds; launch cost
	node dist/test/bench/speed.js

.PHONY: bench-render
bench-render: build ## benchmark (~4 min): GET /screenshot/render vs create + info?wait + download vs the raw Playwright loop, chromium at 1, 2 and 4 at once, alternating rounds (docs/performance.md "Render")
	node dist/test/bench/render.js 4 8 1,2,4

.PHONY: bench-cost
bench-cost: build ## benchmark (~12 min): a viewport capture's CPU split into shotfarm's own processes and the browsers (raw, embedded, distributed; SQL statements per capture), then the driver alone vs the raw loop on one browser; SHOTFARM_BENCH_CPU_PROF=<dir> writes the services' CPU profiles
	node dist/test/bench/capture-cost.js 3 16 1,2
	node dist/test/bench/driver-cost.js

.PHONY: bench-idle
bench-idle: build ## benchmark (~10 min): tree RSS of an embedded serve after a burst and after a minute idle at 1 and 4 slots, warm minimum 0 and 1; first capture after idle vs warm; the same for a distributed api and agent
	node dist/test/bench/idle-memory.js

.PHONY: bench-soak
bench-soak: build ## benchmark (~20 min): 2,000 mixed real captures embedded; tree RSS drift, p95 first vs last quarter, leftovers
	node dist/test/bench/soak.js

.PHONY: bench-settle
bench-settle: build ## benchmark (~4 min): the settle wait on an already settled page, wait_until=load vs settled at 1/2/4 at once, alternating rounds
	node dist/test/bench/settle-cost.js

.PHONY: bench-extract
bench-extract: build ## benchmark (~3 min): what markdown=1 and metadata=1 add to a capture (wall, CPU of node and the browser, the extract timing) in chromium and firefox, alternating rounds; the dominant colours' CPU alone
	node dist/test/bench/extract-cost.js

.PHONY: bench-ad-lists
bench-ad-lists: build ## benchmark (seconds): CPU to parse the ad filter lists (LISTS="builtin /path/easylist.txt", built-in by default) into the engine, and to load it serialized
	node dist/test/bench/ad-filter-parse.js $(LISTS)

.PHONY: bench-popups
bench-popups: build ## benchmark (~3 min): capture time with hide_popups / hide_ads off and on, on a plain page and on their fixtures, chrome and firefox
	node dist/test/bench/popup-ad-cost.js

.PHONY: bench-readiness
bench-readiness: build ## benchmark (~7 min): each readiness option and condition off and on, on a plain page and on its fixture (ms and CPU), and the blank check's CPU per capture; the block lists' once-per-process build and each block option on a plain page and on an article with third parties; chrome and firefox
	node dist/test/bench/readiness-cost.js
	node dist/test/bench/block-list-cost.js

.PHONY: dashboard
dashboard: ## rebuild the web dashboard (api/dashboard/ui → api/dashboard/public, which is committed)
	@# The runner loader reads the TypeScript config in memory: no temporary file in node_modules (which may be shared).
	npx vite build --configLoader runner --config api/dashboard/ui/vite.config.ts
