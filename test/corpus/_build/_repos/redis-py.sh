# redis-py. The case being built ($c, set by build-oss.sh) picks the tests its CI job runs:
# - redis-cache-refused: the standalone client-side cache tests (they need a Redis server at
#   --redis-url, default redis://localhost:6379/0) and two of the cache unit-test classes; the
#   cluster, sentinel and TLS classes belong to other CI jobs
# - redis-multidb-fixture: the sync MultiDBClient unit tests of client, pipeline, config and
#   failover (mocked clients, no server)
# - redis-background-recurring: the background scheduler and backoff unit tests (no server)
case "$c" in
  redis-cache-refused)
    PYTEST_ARGS="--tb=short tests/test_cache.py::TestCache tests/test_cache.py::TestUnitLRUPolicy tests/test_cache.py::TestUnitCacheConfiguration" ;;
  redis-multidb-fixture)
    PYTEST_ARGS="--tb=short tests/test_multidb/test_client.py tests/test_multidb/test_pipeline.py tests/test_multidb/test_config.py tests/test_multidb/test_failover.py" ;;
  redis-background-recurring)
    PYTEST_ARGS="--tb=short tests/test_background.py tests/test_backoff.py" ;;
esac
