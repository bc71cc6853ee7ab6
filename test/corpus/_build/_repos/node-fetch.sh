# node-fetch/node-fetch (3.1.x, ESM): mocha over the redirect tests of test/main.js, against the
# project's own TestServer (test/utils/server.js). The rest of main.js needs what a CI runner
# without network lacks (https to github.com, DNS; 4 tests fail at every commit here), hence the
# grep. Upstream keeps no lockfile (.npmrc: package-lock=false): the dependencies and the devDependencies
# main.js imports, pinned at exact versions of January 2022 within the ranges of package.json.
NPM_DEPS=(data-uri-to-buffer@4.0.0 fetch-blob@3.1.4 formdata-polyfill@4.0.10 abort-controller@3.0.0
  abortcontroller-polyfill@1.7.3 busboy@0.3.1 chai@4.3.4 chai-as-promised@7.1.1 chai-iterator@3.0.2
  chai-string@1.5.0 delay@5.0.0 form-data@4.0.0 formdata-node@4.3.2 mocha@9.1.3 p-timeout@5.0.2
  stream-consumers@1.0.1 mocha-junit-reporter@2.2.1)
TEST_ARGS="test/main.js --grep=redirect"
