# The two commands: `make demo` and `make test`. Everything else is optional.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# the suite's processes (pytest-xdist), each with its own test database and Redis database (config/settings/test.py)
TEST_PROCESSES ?= 2

.PHONY: demo test install bench bench-night bench-federation check-generated check-fide lint messages worker serve schema

# the project's dependencies (it installs no package of its own: commands run from this directory); not an
# editable install, whose path finder every Python process would import at start (about 20 ms each)
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet ".[test]"
	touch $(TEST_STAMP)

install: $(STAMP)

messages: $(STAMP)
	$(BIN)/python manage.py compilemessages --ignore=.venv -v 0

demo: $(STAMP) messages
	$(BIN)/python manage.py migrate --no-input -v 0
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: $(TEST_STAMP) messages
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run -v 0 --settings=config.settings.test
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist loadfile --junitxml=.reports/pytest.xml $(PYTEST_ARGS)
	$(BIN)/python scripts/test-times .reports/pytest.xml

bench: $(TEST_STAMP)
	$(BIN)/python tests/bench/bench_engine.py
	$(BIN)/python tests/bench/bench_engine.py --phases --runs 5
	$(BIN)/python tests/bench/bench_pairings.py

# a league night: 45 events, secretaries and readers at once, with one worker and with two (a few minutes)
bench-night: $(TEST_STAMP) messages
	$(BIN)/python tests/bench/bench_night.py

# a federation night on loopback: a 5,600-player open in 26 sections and 40 team divisions, 500 page requests and
# 30 results a second for 10 minutes (BENCH_SECONDS=120 for a shorter one)
BENCH_SECONDS ?= 600
bench-federation: $(TEST_STAMP) messages
	$(BIN)/python tests/bench/bench_federation.py --seconds $(BENCH_SECONDS)

# one worker taking every queue (without -Q a worker takes all of config/celery.py's); compose runs a pool per queue
# the Random Tournament Generator's files checked by our checker and by FIDE's pairing checker (N tournaments)
N ?= 20
check-generated: $(STAMP)
	$(BIN)/python scripts/check-generated $(N)

# N random tournaments played on the site through its own doors, every round checked with FIDE's pairing and
# tie-break checkers (needs PostgreSQL, as the tests)
check-fide: $(STAMP)
	$(BIN)/python scripts/check-fide $(N)

worker: $(STAMP)
	$(BIN)/celery -A config worker -l info

serve: $(STAMP)
	$(BIN)/gunicorn -c config/gunicorn.py config.wsgi -b 127.0.0.1:8000

schema: $(STAMP)
	$(BIN)/python manage.py spectacular --file docs/openapi.yaml --validate --fail-on-warn --settings=config.settings.test
