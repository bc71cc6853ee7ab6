/** Paths that hold tests or their data, by the conventions of the languages we read. */
const TEST_PATH = [
  /(^|\/)(tests?|__tests__|spec|specs|testdata|fixtures?)\//,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /_test\.(go|py)$/,
  /(^|\/)test_[^/]*\.py$/,
  /(^|\/)conftest\.py$/,
  /(Test|Tests|IT)\.(java|kt)$/,
];

export function isTestPath(path: string): boolean {
  return TEST_PATH.some((re) => re.test(path));
}

/** Test data and shared setup rather than a test body: where fixture problems live. */
export function isFixturePath(path: string): boolean {
  return /(^|\/)(conftest\.py|fixtures?\/|testdata\/)/.test(path);
}
