# The README's two commands: `make demo` and `make test`. Both create .venv,
# install what they need and are safe to run again (stamps skip done work;
# with the caches in place nothing touches the network).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check -q -c constraints.txt
RUNTIME_STAMP := $(VENV)/.installed-runtime
TEST_STAMP := $(VENV)/.installed-test
PYTEST_ARGS ?=

.PHONY: demo test unit lint snapshots generated kafka-jars cluster-up cluster-down clean

demo: $(RUNTIME_STAMP)
	$(VENV)/bin/kafka-advisor lint fixtures/demo/ --exit-zero
	@echo; echo "Next: the guided session, with metrics, as text and as an HTML page:"
	@echo "  $(VENV)/bin/kafka-advisor advise fixtures/advise/ --html advise-report.html --alerts alerts.yaml"

# Whole suite against a fresh 3-node cluster, which is stopped however pytest ends.
test: $(TEST_STAMP) kafka-jars
	$(PY) -m ruff check advisor tests tools
	$(PY) -m ruff format --check advisor tests tools
	$(PY) tools/typecheck.py
	@tools/kafka-cluster down
	@trap 'tools/kafka-cluster down' EXIT INT TERM; \
	  tools/kafka-cluster up && $(PY) -m pytest $(PYTEST_ARGS)

# The fast in-process suite to run after every change: no cluster, no oracle, no build (docs/development.md).
unit: $(TEST_STAMP)
	$(PY) -m pytest -m "not kafka and not slow" $(PYTEST_ARGS)

# Refresh pinned outputs and generated docs after an intended change; review the diff.
snapshots: $(TEST_STAMP)
	$(PY) tools/update_snapshots.py

generated: $(TEST_STAMP)
	$(PY) tools/gen_rule_docs.py

# ruff, and mypy held to tools/mypy-baseline.txt: no type error beyond today's (tools/typecheck.py).
lint: $(TEST_STAMP)
	$(PY) -m ruff check advisor tests tools
	$(PY) -m ruff format --check advisor tests tools
	$(PY) tools/typecheck.py

kafka-jars:
	@$(PYTHON) tools/fetch_kafka.py

cluster-up: $(TEST_STAMP) kafka-jars
	tools/kafka-cluster up

cluster-down:
	tools/kafka-cluster down

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): pyproject.toml constraints.txt | $(VENV)/bin/python
	$(PIP) -e .
	@touch $@

$(TEST_STAMP): pyproject.toml constraints.txt | $(VENV)/bin/python
	$(PIP) -e '.[test]'
	@touch $@ $(RUNTIME_STAMP)

clean: cluster-down
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache
