/**
 * Paths that hold tests or their data, by the conventions of the languages we read. The same
 * conventions as the rules engine's (src/engines/rules/test-paths.ts), kept here so the checker
 * does not depend on an engine it judges.
 */
const TEST_PATH = [
  /(^|\/)(tests?|__tests__|__mocks__|spec|specs|testdata|testing|fixtures?)\//,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /_test\.(go|py)$/,
  /(^|\/)test_[^/]*\.py$/,
  /(^|\/)conftest\.py$/,
  /(Test|Tests|IT|TestCase)\.(java|kt)$/,
];

/** How the CI runner and its services are set up: what an environment fix may touch besides tests. */
const INFRA_PATH = [
  /(^|\/)Dockerfile[^/]*$/,
  /(^|\/)docker-compose[^/]*\.ya?ml$/,
  /(^|\/)compose\.ya?ml$/,
  /^\.github\/workflows\//,
  /^\.gitlab-ci\.yml$/,
  /(^|\/)Jenkinsfile$/,
  /^\.circleci\//,
  /^azure-pipelines\.ya?ml$/,
  /^\.zuul\.ya?ml$|^zuul\.d\//,
  /(^|\/)\.env(\.[\w-]+)?$/,
];

export function isTestPath(path: string): boolean {
  return TEST_PATH.some((re) => re.test(path));
}

export function isInfraPath(path: string): boolean {
  return INFRA_PATH.some((re) => re.test(path));
}
