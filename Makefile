.DEFAULT_GOAL := help
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help
help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 12

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

.PHONY: setup
setup: $(STAMP) ## Create .venv and install bgsim with its test tools

.PHONY: run
run: setup ## Set up, then run the seat-order experiment (2/3/4 players) and write its report
	$(BIN)/bgsim seat-order experiments/configs/seat_order.toml --jobs 2 --resume

# The report tests render HTML in headless Chromium: install it from the system packages if missing.
.PHONY: browser
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null \
	  || { sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	       $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive \
	       apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

# Every game is compiled into the Numba cache first, so that the two test workers load it rather than
# each compiling the same kernels. Tests marked own_workers start their own workers and run alone.
.PHONY: test
test: setup browser ## Set up if needed (Chromium included), compile each game once, then run every test on 2 cores
	$(BIN)/python -m tests.compile_games
	$(BIN)/pytest -q -n 2 --dist worksteal

.PHONY: calibrate
calibrate: setup ## Run the full calibration suite: coverage and false-flag rates of every interval and verdict
	$(BIN)/python -m bgsim.experiments.calibration_suite --out calibration.csv

.PHONY: bench
bench: setup ## Print games/s per core of every game's rules engine (each game's entry names its bench)
	$(BIN)/python -m bgsim.experiments.bench

.PHONY: lint
lint: setup ## Static checks (ruff)
	$(BIN)/ruff check bgsim sim strategies experiments reports tests

.PHONY: golden
golden: setup ## Rewrite the golden playthroughs (tests/games/<game>/golden/) after an intended rules change
	$(BIN)/python -m tests.golden.regenerate

.PHONY: clean
clean: ## Remove the virtual environment, caches and run outputs
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache runs
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
