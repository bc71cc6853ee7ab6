import { expect } from 'vitest';
import { Location, type LocationRole } from '../../../src/schemas/facts.ts';

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
