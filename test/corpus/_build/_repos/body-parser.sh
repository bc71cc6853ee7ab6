# expressjs/body-parser: mocha (+ supertest) over test/*.js. Upstream keeps no lockfile, so the
# dependencies are pinned here at exact versions within the ranges of the tree's package.json
# (its runtime dependencies, mocha and supertest; not eslint/nyc), chosen by the tree's version.
TEST_ARGS="--check-leaks test/"
TEST_ENV="NO_DEPRECATION=body-parser" # what the 2.0 trees' test/support/env.js sets
npm_deps() { # npm_deps WS
  local version
  version=$(node -p 'require(process.argv[1]).version' "$1/package.json")
  case "$version" in
    2.0.*) # 2.0.x (2024): package.json pins most of them exactly
      printf '%s\n' bytes@3.1.2 content-type@1.0.5 debug@3.1.0 destroy@1.2.0 http-errors@2.0.0 \
        iconv-lite@0.5.2 on-finished@2.4.1 qs@6.13.0 raw-body@3.0.0 type-is@1.6.18 unpipe@1.0.0 \
        methods@1.1.2 safe-buffer@5.2.1 mocha@10.2.0 supertest@6.3.3 mocha-junit-reporter@2.2.1 ;;
    *) # 2.2.x (2026)
      printf '%s\n' bytes@3.1.2 content-type@1.0.5 debug@4.4.3 http-errors@2.0.1 iconv-lite@0.7.2 \
        on-finished@2.4.1 qs@6.15.0 raw-body@3.0.2 type-is@2.0.1 mocha@11.1.0 supertest@7.0.0 \
        mocha-junit-reporter@2.2.1 ;;
  esac
}
