# jshttp/cookie: TypeScript sources tested by vitest (upstream runs it through @borderless/ts-scripts;
# vitest itself, at the version of the project's package-lock.json, runs the same spec files).
# tsconfig.json extends the ts-scripts preset, so it is left out of the tree (vitest needs none).
NPM_DEPS=(vitest@3.2.4 vite@7.1.11)
TEST_ARGS="src/"
