# pillarjs/path-to-regexp: TypeScript sources tested by vitest (upstream runs it through
# @borderless/ts-scripts; vitest itself, at the version of the project's package-lock.json, runs the
# same spec files with the project's vitest.config.mts). tsconfig.json extends the ts-scripts
# preset, so it is left out of the tree (vitest needs none).
NPM_DEPS=(vitest@3.0.5 vite@6.0.11)
TEST_ARGS="src/index.spec.ts" # src/cases.spec.ts holds only the test data (no suite)
