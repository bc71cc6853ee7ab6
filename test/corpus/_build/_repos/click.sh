# click: a src-layout package (the runner puts src/ on PYTHONPATH); pytest is configured in
# pyproject.toml (testpaths, filterwarnings = error). The case being built ($c, set by
# build-oss.sh) picks the test files its CI job runs.
case "$c" in
  click-no-args-exit-code) PYTEST_ARGS="tests/test_commands.py" ;;
esac
