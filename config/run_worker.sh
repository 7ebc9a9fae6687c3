#!/bin/sh
# Runs the command given (the Celery worker of `make run`) and starts it again whenever
# it ends on its own, saying so in the terminal: without a worker no mail, no computer
# move and no tournament start happens, and nothing else would tell. TERM or INT stops
# the command and this script (the Makefile's trap sends it when the web server ends).
stopping=""
child=""
stop() {
	stopping=1
	[ -n "$child" ] && kill "$child" 2>/dev/null && wait "$child"
	exit 0
}
trap stop INT TERM
while :; do
	"$@" &
	child=$!
	wait "$child"
	code=$?
	[ -n "$stopping" ] && exit 0
	echo "*** The Celery worker stopped (exit status $code); starting it again. ***" >&2
	sleep 1
done
