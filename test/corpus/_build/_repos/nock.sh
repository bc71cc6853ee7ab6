# nock/nock (2020, v13): mocha over tests/test_delay.js, configured by the project's .mocharc.js
# (check-leaks, tests/setup.js). Exact versions from the project's package-lock.json: the runtime
# dependencies and what the delay tests load (tests/setup.js also requires tap).
NPM_DEPS=(debug@4.1.1 json-stringify-safe@5.0.1 lodash.set@4.3.2 propagate@2.0.1 chai@4.2.0
  dirty-chai@2.0.1 sinon@9.0.2 sinon-chai@3.5.0 got@11.3.0 assert-rejects@1.0.0 mocha@8.0.1
  tap@14.6.1 mocha-junit-reporter@2.2.1)
TEST_ARGS="tests/test_delay.js"
# the delay tests time real timers against process.hrtime(); run them, as on the shared CI agents
# where they flaked upstream, beside other CPU-bound work
TEST_LOAD=3
