#!/usr/bin/env bash
# Fetches what a throwaway Gerrit 3.10 server needs from Maven Central into a cache and prints the
# path of the classpath file (one line, ':'-separated). Idempotent; safe to run concurrently.
#
# Gerrit's release war is not on Maven Central, but its classes are: gerrit-acceptance-framework
# (pgm.Init/Daemon, jetty, sshd, ...) plus gerrit-plugin-api (server, httpd, launcher), with
# Bouncy Castle beside them. The jars go into an exploded-war layout (war/WEB-INF/lib/), which is
# what Gerrit's StaticModule expects when its launcher class is loaded from a .jar.
#
# Env: GERRIT_CACHE_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/ci-diagnosis/gerrit-3.10.2),
#      MAVEN_REPO_URL (default https://repo.maven.apache.org/maven2).
set -euo pipefail

GERRIT_VERSION=3.10.2
BC_VERSION=1.77
REPO="${MAVEN_REPO_URL:-https://repo.maven.apache.org/maven2}"
CACHE="${GERRIT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ci-diagnosis/gerrit-$GERRIT_VERSION}"
HERE="$(cd "$(dirname "$0")" && pwd)"

ARTIFACTS=(
  "com.google.gerrit:gerrit-acceptance-framework:$GERRIT_VERSION"
  "com.google.gerrit:gerrit-plugin-api:$GERRIT_VERSION"
  "org.bouncycastle:bcprov-jdk18on:$BC_VERSION"
  "org.bouncycastle:bcpkix-jdk18on:$BC_VERSION"
  "org.bouncycastle:bcutil-jdk18on:$BC_VERSION"
  "org.bouncycastle:bcpg-jdk18on:$BC_VERSION"
)

for tool in curl java javac sha1sum; do
  command -v "$tool" >/dev/null || { echo "fetch.sh: '$tool' is required" >&2; exit 1; }
done

LIB="$CACHE/war/WEB-INF/lib"
LAUNCHER="$CACHE/launcher"
mkdir -p "$LIB" "$LAUNCHER"

# One fetcher at a time per cache (CI and parallel test workers may race).
if command -v flock >/dev/null; then
  exec 9>"$CACHE/.lock"
  flock 9
fi

fetch_one() { # group:artifact:version -> $LIB/artifact-version.jar, checked against Central's .sha1
  local g a v url jar want
  IFS=: read -r g a v <<<"$1"
  jar="$LIB/$a-$v.jar"
  url="$REPO/${g//.//}/$a/$v/$a-$v.jar"
  [ -f "$jar.sha1" ] || curl -fsSL --retry 3 -o "$jar.sha1" "$url.sha1"
  want="$(cut -c1-40 <"$jar.sha1")"
  if [ -f "$jar" ] && [ "$(sha1sum "$jar" | cut -c1-40)" = "$want" ]; then
    return 0
  fi
  echo "fetch.sh: downloading $url" >&2
  curl -fsSL --retry 3 -o "$jar.part" "$url"
  if [ "$(sha1sum "$jar.part" | cut -c1-40)" != "$want" ]; then
    rm -f "$jar.part" "$jar.sha1"
    echo "fetch.sh: sha1 mismatch for $url" >&2
    exit 1
  fi
  mv -f "$jar.part" "$jar"
}

for coords in "${ARTIFACTS[@]}"; do fetch_one "$coords"; done

# Our launcher, plus the version stamp a release war carries (read by com.google.gerrit.common.Version;
# without it the server reports "(dev)").
if [ ! -f "$LAUNCHER/Run.class" ] || [ "$HERE/Run.java" -nt "$LAUNCHER/Run.class" ]; then
  javac -d "$LAUNCHER" "$HERE/Run.java"
fi
mkdir -p "$LAUNCHER/com/google/gerrit/common"
echo "v$GERRIT_VERSION" >"$LAUNCHER/com/google/gerrit/common/Version"

cp_entries="$LAUNCHER"
for coords in "${ARTIFACTS[@]}"; do
  IFS=: read -r _ a v <<<"$coords"
  cp_entries="$cp_entries:$LIB/$a-$v.jar"
done
echo "$cp_entries" >"$CACHE/classpath.txt.tmp" && mv -f "$CACHE/classpath.txt.tmp" "$CACHE/classpath.txt"
echo "$CACHE/classpath.txt"
