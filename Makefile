# Two commands: `make run` serves the site, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 8000
# What `make run` watches for code changes (not .venv or node_modules).
RELOAD_DIRS := accounts botplay bots community config enginekit games live lobby moderation ops \
	notify siam tal tournaments agreements social learn automatch
export SITE_URL ?= http://127.0.0.1:$(PORT)

.PHONY: run test demo lint format messages bench soak

$(STAMP): requirements.txt requirements/site.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# A Celery worker with beat runs beside the web server on the broker in files under
# .celery/ (no server needed), consuming both queues (mail on "celery", pushes and
# webhooks on "pings"); config/run_worker.sh starts it again if it dies and says so,
# and the trap stops it whenever the web server ends. The web server is uvicorn (ASGI,
# from requirements.txt), reloading on code changes like runserver: runserver (WSGI)
# cannot hold the pages' live streams open.
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo --if-empty
	export CELERY_TASK_ALWAYS_EAGER=0; \
	config/run_worker.sh $(VENV)/bin/celery -A config worker -B -Q celery,pings --pool solo \
		--loglevel INFO --without-gossip --without-mingle & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(VENV)/bin/uvicorn config.asgi:application --reload --host 127.0.0.1 --port $(PORT) \
		$(foreach dir,$(RELOAD_DIRS),--reload-dir $(dir))

demo: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo

# The browser tests inject axe-core for their accessibility checks; without it
# they skip. npm fetches it here when npm is installed (package-lock.json pins it).
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm install --no-audit --no-fund && touch $@; \
	else \
		echo "npm not found: the accessibility checks (axe-core) will be skipped."; \
	fi

# One process per core (pytest-xdist; TEST_JOBS=0 runs in this process), tests handed out
# as workers free up, and the 20 slowest tests printed at the end.
TEST_JOBS ?= auto
test: $(STAMP) $(AXE)
	$(PY) -m pytest -n $(TEST_JOBS) --dist worksteal --durations=20 $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache --no-logo

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

messages: $(STAMP)
	$(PY) manage.py makemessages -l de --ignore=.venv --ignore=tests --ignore=bench --ignore=node_modules
	$(PY) manage.py compilemessages -l de --ignore=.venv

# site_load.py --quick: 2 rounds of 15 requests per figure, the long game at 1,000 moves
# and 100,000 finished games / 1,000,000 moves against 100 (PostgreSQL and Redis when
# DATABASE_URL / REDIS_URL are set; it creates and drops its own database). live.py:
# 200, 1,000 and 2,000 open streams against the 4-second poll, on the same services.
# archive_search.py: each search of the archive at 100,000 finished games and 1,000,000
# moves against 100 (its own throw-away database, as site_load.py).
bench: $(STAMP)
	$(PY) bench/engines.py
	$(PY) bench/siam_playouts.py
	$(PY) bench/tal_playouts.py
	$(PY) bench/site_moves.py
	$(PY) bench/sweep_deadlines.py
	$(PY) bench/bots.py --seats 2 --games 200 --playouts siam=200,tal=100 --positions 20 --endings 2000
	$(PY) bench/bot_from_view.py
	$(PY) bench/cold_positions.py
	$(PY) bench/automatch.py
	$(PY) bench/move_parts.py
	$(PY) bench/site_load.py --quick
	$(PY) bench/live.py
	$(PY) bench/archive_search.py
	# issue 46: connected players held (needs DATABASE_URL of PostgreSQL; ports 25200-25201)
	$(PY) bench/capacity.py --quick

# The soak of issue 40 (bench/soak.py): the production shape on 127.0.0.1 under faults
# (kills, Redis and SMTP down, a failing webhook receiver), every hand-over's mails, pushes
# and posts counted. Needs DATABASE_URL of a PostgreSQL server whose role may create a
# database; ports 24000-24012. About 5-8 minutes: not part of `make bench`.
soak: $(STAMP)
	$(PY) bench/soak.py --quick
