# python-slugify: a flat package (slugify/) with its unittest suite in test.py at the root, which
# pytest collects when named (the file name does not match pytest's default test_*.py pattern)
PYTEST_ARGS="test.py"
