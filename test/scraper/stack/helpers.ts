import { expect, it } from 'vitest';
import { parseStackTrace, type StackHints } from '../../../scraper/stack/index.ts';
import { type Language, Location, type LocationRole } from '../../../src/schemas/facts.ts';

/** The concrete fields a role's frame must have; `frame_index` pins which printed frame it is. */
export interface RoleExpectation {
  file: string;
  line: number | null;
  function: string | null;
  frame_index: number;
  snippet?: string | null;
  column?: number | null;
}

/** Exactly one frame carries the role with these values, or none when `expected` is null. */
export function expectRole(
  locations: Location[],
  role: LocationRole,
  expected: RoleExpectation | null,
): void {
  const found = locations.filter((l) => l.role === role);
  if (expected === null) {
    expect(found).toEqual([]);
    return;
  }
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ ...expected, library: false });
}

/** Every location must satisfy the facts schema the scraper writes. */
export function expectSchemaValid(locations: Location[]): void {
  expect(() => Location.array().parse(locations)).not.toThrow();
}

/** One real trace and the frames that must carry the `failure` and `test` roles. */
export interface TraceCase {
  name: string;
  trace: string;
  hints?: StackHints;
  failure: RoleExpectation | null;
  test: RoleExpectation | null;
}

/** The table every language's suite runs: schema-valid frames, the right roles, one language. */
export function itFindsRoles(cases: readonly TraceCase[], language: Language): void {
  it.each(cases)('$name', ({ trace, hints, failure, test }) => {
    const locations = parseStackTrace(trace, hints);
    expectSchemaValid(locations);
    expectRole(locations, 'failure', failure);
    expectRole(locations, 'test', test);
    expect(locations.every((l) => l.language === language)).toBe(true);
  });
}
