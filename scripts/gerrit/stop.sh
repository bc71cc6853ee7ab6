#!/usr/bin/env bash
# Stops a Gerrit started by start.sh SITE PORT (the pid is in SITE/daemon.pid).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 SITE" >&2
  exit 2
fi
pidfile="$1/daemon.pid"
[ -f "$pidfile" ] || { echo "stop.sh: no $pidfile, nothing to stop" >&2; exit 0; }
pid="$(cat "$pidfile")"
if kill -TERM "$pid" 2>/dev/null; then
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
fi
rm -f "$pidfile"
