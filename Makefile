# The two entry points of the README. Both build .venv from nothing but Python.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test test-fast check install clean bench browser pictures dist docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The packages are compiled to bytecode after the install, on every core (pip compiles them one
# by one: half of its time). Every command a test starts imports numba and numpy; where Python
# may not write .pyc files itself (PYTHONDONTWRITEBYTECODE), an uncompiled environment made each
# of those commands compile them again (1 s became 3 to 6 s).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test,docs]'
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib src
	touch $@

install: $(VENV)/.installed

demo: install
	@$(BIN)/boardpuzzles demo

# The tests run on pytest-xdist workers, one more than there are cores (at most five): many tests
# wait on a server, a browser or a process they stop, and the spare worker uses that core
# meanwhile (on two cores: 445 s, against 485 s with one worker a core). `make test
# PYTEST_WORKERS=` runs them in one process.
CORES := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
PYTEST_WORKERS ?= -n $(shell n=$$(( $(CORES) + 1 )); [ $$n -gt 5 ] && n=5; echo $$n) --dist worksteal
# The files with tests marked nojit (the plain-Python run collects only these).
NOJIT_TESTS = $(shell grep -l 'mark\.nojit' tests/test_*.py)

# The gate: formatting, lint and types first (seconds; meanwhile every kernel is compiled once,
# `boardpuzzles warmup`, instead of by each worker and each command a test starts), then every
# test (the strict build of the docs is one of them) and, beside them at a lower priority, the
# kernels run as plain Python against their twins (NUMBA_DISABLE_JIT=1, the tests marked nojit):
# that run takes the time the main run's workers leave idle while they wait; its report follows.
# It runs in a process group of its own, so that a Ctrl-C ends it and its workers too (a job
# started with & in a script ignores Ctrl-C); not in a session of its own, which Linux would
# schedule as a peer of the main run, whatever its nice.
test: install browser
	@$(BIN)/boardpuzzles warmup & warming=$$!; $(MAKE) --no-print-directory check && wait $$warming
	@plain=$$(mktemp); beside=; \
	trap 'kill -TERM -$$beside 2>/dev/null || kill -TERM $$beside 2>/dev/null; rm -f $$plain; exit 130' INT TERM HUP; \
	NUMBA_DISABLE_JIT=1 $(BIN)/python -c 'import os, sys; os.setpgid(0, 0); os.execvp(sys.argv[1], sys.argv[1:])' \
	  nice -n 10 $(BIN)/python -m pytest -q $(PYTEST_WORKERS) -m nojit -p no:cacheprovider $(NOJIT_TESTS) \
	  >$$plain 2>&1 & beside=$$!; \
	echo "$(BIN)/python -m pytest -q $(PYTEST_WORKERS) --durations=15"; \
	$(BIN)/python -m pytest -q $(PYTEST_WORKERS) --durations=15; compiled=$$?; \
	wait $$beside; plain_python=$$?; \
	echo "NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q $(PYTEST_WORKERS) -m nojit (the kernels as plain Python)"; \
	cat $$plain; rm -f $$plain; \
	[ $$compiled = 0 ] && [ $$plain_python = 0 ]

# The tests to run while working: all but those marked slow (long counts, every --help and README
# example, the browser, the wheel; see tests/conftest.py). Under a minute on two cores.
test-fast: install
	$(BIN)/python -m pytest -q $(PYTEST_WORKERS) -m "not slow" --durations=10

check: install
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

# The Baikago web page is tested in a real headless Chromium, driven by Playwright (from the test
# extra) through the system's browser: Playwright's own browser download is never used. Install
# Chromium from the system packages when we may (root with apt-get); otherwise the browser tests
# are skipped, with the reason.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	    { echo "installing chromium for the browser test (apt-get)"; \
	      (apt-get install -y -qq chromium >/dev/null 2>&1 || \
	       (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1)) || \
	      echo "could not install chromium: the browser test will be skipped"; } ; } || true

# The pictures to look at, in build/pictures: knight's tours of 8x8, 50x50, 300x300 and 1000x1000
# (SVG and PNG), a Goishi solution, the GIF and its frames, a sheet of Hyperqueen boards, a Baikago
# position, the Baikago web page at 1200x900 and 390x844 (opening, mid-game, won), and every
# puzzle's play page (a new puzzle on a phone, solved on a desktop); the web pages are skipped
# without Chromium. The same tests run in `make test`, into temporary folders. Then docs/pictures.py
# draws the documentation's gallery (docs/gallery) and the README's picture (docs/assets/hero.png).
pictures: install browser
	mkdir -p build/pictures
	BOARDPUZZLES_PICTURES=build/pictures BOARDPUZZLES_SCREENSHOTS=build/pictures/web \
	  $(BIN)/python -m pytest -q -rs tests/test_pictures.py \
	  tests/test_web_baikago.py -k "pictures or opens_ready or whole_game"
	BOARDPUZZLES_SCREENSHOTS=build/pictures/play \
	  $(BIN)/python -m pytest -q -rs tests/test_play_conformance.py -k solved_by_clicks
	@ls -l build/pictures build/pictures/web build/pictures/play 2>/dev/null || true
	$(BIN)/python docs/pictures.py --screenshots build/pictures/web --play build/pictures/play

# The documentation site, into build/site. Strict: a broken link or reference fails the build
# (tests/test_docs.py builds it too, so `make test` does).
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# A source distribution and a wheel built from it, in dist/, as pip builds them (in isolation);
# tests/test_wheel.py installs the wheel into a fresh virtual environment and runs it.
dist: install
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

bench: install
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
