# click: a src-layout package (the runner puts src/ on PYTHONPATH); pytest is configured in
# pyproject.toml (testpaths, filterwarnings = error). The case being built ($c, set by
# build-oss.sh) picks the test files its CI job runs.
case "$c" in
  click-no-args-exit-code) PYTEST_ARGS="tests/test_commands.py" ;;
  # tests/test_basic.py passes a generator to parametrize, which pytest 9 deprecates; with
  # filterwarnings = error that warning would stop its collection
  click-choice-double-bracket) PYTEST_ARGS="-W ignore::pytest.PytestRemovedIn10Warning tests/test_basic.py" ;;
  click-help-hint-shadowed) PYTEST_ARGS="tests/test_formatting.py" ;;
esac
