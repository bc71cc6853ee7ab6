# spf13/pflag: one package at the repository root; the cases keep only the test files they need
GO_TEST_ARGS="."
