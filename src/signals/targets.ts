import type { Citation, LineRange, Signal } from '../schemas/index.ts';

/**
 * What a signal points at, so that an engine can place a diagnosis there without re-reading
 * the code: the changed function the failing path calls, the test code that still uses what
 * the change renamed on purpose, the fixture a test's data comes from, the function the
 * failing assertion calls. It travels as an inner `signal` citation of the signal (like
 * `signature_history`): the engine copies it into its claims and the evidence checker resolves
 * it against the triage, so a place taken from it is backed by a signal the triage raised.
 *
 * - `changed_function`: a function this change modified that the failing path calls.
 * - `stale_use`: test code that still uses a name the change removed on purpose.
 * - `fixture`: the setup the failing test's data comes from (pytest fixture, `@BeforeEach`).
 * - `callee`: the function the failing assertion calls (the code under test), which this
 *   change did not modify.
 */
export type TargetRole = 'changed_function' | 'stale_use' | 'fixture' | 'callee';

export const TARGET_ROLES: readonly TargetRole[] = ['changed_function', 'stale_use', 'fixture', 'callee'];

export interface SignalTarget {
  file: string;
  /** As the parser names it (`Class.method`, `fn`); null for module-level code. */
  function: string | null;
  /** The function's span (or the module-level lines) at the revision. */
  lines: LineRange;
}

/** `pricing/price.py:12-19 (gross_price)`: readable in a report, and parsed back exactly. */
export function targetCite(role: TargetRole, target: SignalTarget): Extract<Citation, { kind: 'signal' }> {
  const at = `${target.file}:${target.lines.start}-${target.lines.end}`;
  return { kind: 'signal', name: role, detail: target.function === null ? at : `${at} (${target.function})` };
}

const DETAIL = /^(.+?):(\d+)-(\d+)(?: \((.+)\))?$/;

/** The target a citation names, or null when it is no target citation (or a malformed one). */
export function targetOf(
  citation: Citation,
): { role: TargetRole; target: SignalTarget; cite: Extract<Citation, { kind: 'signal' }> } | null {
  if (citation.kind !== 'signal' || !TARGET_ROLES.includes(citation.name as TargetRole)) return null;
  const m = DETAIL.exec(citation.detail);
  if (m === null) return null;
  const start = Number(m[2]);
  const end = Number(m[3]);
  if (start < 1 || end < start) return null;
  return {
    role: citation.name as TargetRole,
    target: { file: m[1] as string, function: m[4] ?? null, lines: { start, end } },
    cite: citation,
  };
}

export interface TargetedSignal {
  signal: Signal;
  target: SignalTarget;
  /** The inner citation to copy into a claim that relies on the target. */
  cite: Extract<Citation, { kind: 'signal' }>;
}

/** Every target of the given role the signals carry, in signal order (the triage lists deciding signals first). */
export function targetsIn(signals: readonly Signal[], role: TargetRole): TargetedSignal[] {
  return signals.flatMap((signal) =>
    signal.cites.flatMap((c) => {
      const t = targetOf(c);
      return t === null || t.role !== role ? [] : [{ signal, target: t.target, cite: t.cite }];
    }),
  );
}
