#!/usr/bin/env bash
# Starts a throwaway Gerrit 3.10 (headless: REST + git over HTTP, no web UI; SSH only on request)
# on 127.0.0.1.
#
#   start.sh SITE PORT               init SITE if new, configure, start the daemon in the background,
#                                    wait until it answers, print its base URL (pid in SITE/daemon.pid)
#   start.sh --foreground SITE PORT  same init and configuration, then exec the daemon in this
#                                    process (for callers that supervise it, e.g. the test helper)
#
# A new site is made with `init --batch --dev`: auth DEVELOPMENT_BECOME_ANY_ACCOUNT and user admin
# with HTTP password "secret". Env: GERRIT_HEAP (default 1g), GERRIT_START_TIMEOUT (seconds, 240),
# GERRIT_SSH_PORT (unset: no SSH daemon; set: sshd on 127.0.0.1:PORT, e.g. for `gerrit stream-events`).
set -euo pipefail

foreground=0
if [ "${1:-}" = "--foreground" ]; then foreground=1; shift; fi
if [ $# -ne 2 ]; then
  echo "usage: $0 [--foreground] SITE PORT" >&2
  exit 2
fi
SITE="$(mkdir -p "$(dirname "$1")" && cd "$(dirname "$1")" && pwd)/$(basename "$1")"
PORT="$2"
URL="http://127.0.0.1:$PORT/"
HERE="$(cd "$(dirname "$0")" && pwd)"

CP="$(cat "$(bash "$HERE/fetch.sh")")"
JAVA=(java "-Xmx${GERRIT_HEAP:-1g}" -cp "$CP")
export GERRIT_TMP="$SITE/tmp"

if [ ! -f "$SITE/etc/gerrit.config" ]; then
  "${JAVA[@]}" Run Init --batch --dev --no-auto-start --skip-plugins -d "$SITE" >&2
fi

cfg() { git config -f "$SITE/etc/gerrit.config" "$@"; }
cfg gerrit.canonicalWebUrl "$URL"
cfg httpd.listenUrl "$URL"
if [ -n "${GERRIT_SSH_PORT:-}" ]; then
  cfg sshd.listenAddress "127.0.0.1:$GERRIT_SSH_PORT"
else
  cfg sshd.listenAddress off
fi
cfg sendemail.enable false
# Gerrit 3.10 stores fix_suggestions on human comments only with this experiment on
# (otherwise POST .../review answers 500 "feature flag prohibits setting fixSuggestions").
flag=GerritBackendFeature__allow_fix_suggestions_in_comments
cfg --get-all experiments.enabled | grep -qx "$flag" || cfg --add experiments.enabled "$flag"

DAEMON=("${JAVA[@]}" Run Daemon -d "$SITE" --console-log --headless)
if [ "$foreground" = 1 ]; then
  exec "${DAEMON[@]}"
fi

log="$SITE/logs/daemon.log"
mkdir -p "$SITE/logs"
nohup "${DAEMON[@]}" >>"$log" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$SITE/daemon.pid"

deadline=$((SECONDS + ${GERRIT_START_TIMEOUT:-240}))
until curl -fsS -o /dev/null "${URL}config/server/version" 2>/dev/null; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "start.sh: Gerrit exited before it was ready; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    rm -f "$SITE/daemon.pid"
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "start.sh: Gerrit not ready after ${GERRIT_START_TIMEOUT:-240}s; stopping it. Last lines of $log:" >&2
    tail -n 40 "$log" >&2
    bash "$HERE/stop.sh" "$SITE" >&2 || true
    exit 1
  fi
  sleep 0.5
done
echo "$URL"
