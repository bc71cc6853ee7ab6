# hatch-vcs writes src/humanize/_version.py (git-ignored) when the package is built; do the same
# (the upstream commits are 37 and 38 commits after the tag 4.15.0; no test reads the version)
prepare() { printf '__version__ = version = "4.15.0"\n' >"$1/src/humanize/_version.py"; }
