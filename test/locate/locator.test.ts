import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocator, type Locator, openLocatorDeps } from '../../src/locate/index.ts';
import type { Language, Location } from '../../src/schemas/index.ts';
import { TempRepo } from '../helpers/git-repo.ts';

const CART_V1 = `export class Cart {
  private items: number[] = [];

  add(price: number): void {
    this.items.push(price);
  }

  total(): number {
    let sum = 0;
    for (const p of this.items) sum += p;
    if (sum < 0) throw new Error('negative total');
    return sum;
  }
}
`;
// Three lines inserted above: everything below moves down by 3.
const CART_V2 = `import { audit } from './audit';

// Totals are audited.
${CART_V1}`;

const UNITS_V1 = `UNITS = {"pcs": 1, "box": 12}


def unit_size(unit):
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit}")
    return UNITS[unit]


def parse_quantity(text):
    amount, unit = text.split()
    return int(amount) * unit_size(unit)
`;
// Renamed to measure.py, with a pallet unit added.
const MEASURE_V2 = UNITS_V1.replace('"box": 12}', '"box": 12, "pallet": 480}');

const LEGACY_V1 = `export function keep(x: number): number {
  return x * 2;
}

export function legacyRate(x: number): number {
  const rate = lookupRate(x);
  return x * rate;
}
`;
// legacyRate deleted by the change.
const LEGACY_V2 = `export function keep(x: number): number {
  return x * 2;
}
`;

const INVOICE = `package com.example.billing;

public class Invoice {
  private final long cents;

  public Invoice(long cents) {
    this.cents = cents;
  }

  public long total() {
    if (cents < 0) {
      throw new IllegalStateException("negative invoice");
    }
    return cents;
  }
}
`;

const LEDGER = `package ledger

type Ledger struct{ entries map[string]int }

func (l *Ledger) Post(id string, cents int) {
	l.entries[id] += cents
}
`;

const PRICE_V1 = `export function price(base: number): number {
  const rounded = Math.round(base);
  return rounded * 1.2;
}
`;
// The change rewrites the failing line itself.
const PRICE_V2 = PRICE_V1.replace('rounded * 1.2;', 'rounded * 1.25;');

const PIPELINE = `def run():
    a = load()
    b = transform(a)
    return save(b)
`;

const DUP = `def first(x):
    return x + 1


def second(x):
    return x + 1
`;

function frame(
  file: string,
  line: number | null,
  fn: string | null,
  language: Language,
  snippet: string | null = null,
): Location {
  return {
    role: 'failure',
    file,
    line,
    column: null,
    function: fn,
    snippet,
    language,
    library: false,
    frame_index: 0,
  };
}

describe('locator on a real repository', () => {
  const repo = new TempRepo();
  let v1: string;
  let v2: string;
  let locator: Locator;
  let close: () => Promise<void>;

  beforeAll(async () => {
    v1 = repo.commit(
      {
        'src/cart.ts': CART_V1,
        'inventory/units.py': UNITS_V1,
        'billing/src/main/java/com/example/billing/Invoice.java': INVOICE,
        'ledger/ledger.go': LEDGER,
        'tools/dup.py': DUP,
        'tools/other/dup.py': DUP,
        'README.txt': 'hello\n',
        'src/legacy.ts': LEGACY_V1,
        'src/price.ts': PRICE_V1,
        'jobs/pipeline.py': PIPELINE,
      },
      'base',
    );
    repo.git('mv', 'inventory/units.py', 'inventory/measure.py');
    v2 = repo.commit(
      {
        'src/cart.ts': CART_V2,
        'inventory/measure.py': MEASURE_V2,
        'src/legacy.ts': LEGACY_V2,
        'src/price.ts': PRICE_V2,
      },
      'the change',
    );
    const deps = await openLocatorDeps(repo.dir);
    locator = createLocator(deps);
    close = deps.close;
  });
  afterAll(async () => {
    await close();
    repo.remove();
  });

  it('grants a line when function and the reported line agree at the report’s own revision', async () => {
    const at = await locator.locate(
      frame('/home/jenkins/workspace/shop/src/cart.ts', 11, 'Cart.total', 'javascript'),
      {
        revision: v1,
        reportRevision: v1,
        diffBase: null,
      },
    );

    expect(at).toMatchObject({ level: 'line', file: 'src/cart.ts', lines: { start: 11, end: 11 } });
    expect(at.function?.name).toMatch(/total$/);
    expect(at.candidate?.text).toContain("throw new Error('negative total')");
  });

  it('follows a line that moved down by three lines to the revision under review', async () => {
    const at = await locator.locate(frame('src/cart.ts', 11, 'Cart.total', 'javascript'), {
      revision: v2,
      reportRevision: v1,
      diffBase: null,
    });

    expect(at).toMatchObject({ level: 'line', file: 'src/cart.ts', lines: { start: 14, end: 14 } });
    expect(at.reasons.join(' | ')).toContain('moved to 14');
  });

  it('follows a renamed file', async () => {
    const at = await locator.locate(frame('inventory/units.py', 6, 'unit_size', 'python'), {
      revision: v2,
      reportRevision: v1,
      diffBase: null,
    });

    expect(at).toMatchObject({ level: 'line', file: 'inventory/measure.py', lines: { start: 6, end: 6 } });
    expect(at.reasons.join(' | ')).toContain('renamed to inventory/measure.py');
  });

  it('does not claim a line or a function that the change deleted', async () => {
    const at = await locator.locate(frame('src/legacy.ts', 6, 'legacyRate', 'javascript'), {
      revision: v2,
      reportRevision: v1,
      diffBase: null,
    });

    expect(at.level).toBe('file');
    expect(at.lines).toBeNull();
    expect(at.reasons.join(' | ')).toMatch(/line 6 was (deleted|rewritten)/);
    expect(at.reasons.join(' | ')).toMatch(/legacyRate not found/);
  });

  it('degrades a snippet that appears twice, and keeps ambiguous paths visible', async () => {
    const at = await locator.locate(frame('dup.py', 6, null, 'python', 'return x + 1'), {
      revision: v1,
      reportRevision: null,
      diffBase: null,
    });

    expect(at.level).toBe('need_evidence');
    expect(at.alternatives.map((a) => a.file).sort()).toEqual(['tools/dup.py', 'tools/other/dup.py']);
  });

  it('degrades a duplicated snippet to the file when no function singles it out', async () => {
    const at = await locator.locate(frame('tools/dup.py', 6, null, 'python', 'return x + 1'), {
      revision: v1,
      reportRevision: null,
      diffBase: null,
    });

    expect(at.level).toBe('file');
    expect(at.reasons.join(' | ')).toMatch(/ambiguous/);
  });

  it('uses the named function to single out a duplicated snippet', async () => {
    const at = await locator.locate(frame('tools/dup.py', 6, 'second', 'python', 'return x + 1'), {
      revision: v1,
      reportRevision: null,
      diffBase: null,
    });

    expect(at).toMatchObject({ level: 'line', lines: { start: 6, end: 6 } });
  });

  it('maps a Java package path to its source root and stays at function level without a snippet', async () => {
    const at = await locator.locate(
      frame('com/example/billing/Invoice.java', 12, 'com.example.billing.Invoice.total', 'java'),
      {
        revision: v1,
        reportRevision: null,
        diffBase: null,
      },
    );

    expect(at).toMatchObject({
      level: 'function',
      file: 'billing/src/main/java/com/example/billing/Invoice.java',
      lines: null,
    });
    expect(at.function?.lines).toEqual({ start: 10, end: 15 });
  });

  it('anchors a Go method named with its pointer receiver', async () => {
    const at = await locator.locate(
      frame('/home/runner/work/ledger/ledger/ledger/ledger.go', 6, 'ledger.(*Ledger).Post', 'go'),
      {
        revision: v1,
        reportRevision: v1,
        diffBase: null,
      },
    );

    expect(at).toMatchObject({ level: 'line', file: 'ledger/ledger.go', lines: { start: 6, end: 6 } });
  });

  it('gives file level when only the path is reliable', async () => {
    const at = await locator.locate(frame('README.txt', 1, null, 'unknown'), {
      revision: v1,
      reportRevision: null,
      diffBase: null,
    });

    expect(at).toMatchObject({ level: 'file', file: 'README.txt', function: null, lines: null });
  });

  it.each([
    ['an unmapped path', '/opt/elsewhere/nothing.py'],
    ['a path traversal', '../../../../etc/passwd'],
    ['an absolute system path', '/etc/passwd'],
  ])('needs evidence for %s and reads nothing outside the repository', async (_label, path) => {
    const at = await locator.locate(frame(path, 1, null, 'python'), {
      revision: v1,
      reportRevision: null,
      diffBase: null,
    });

    expect(at).toMatchObject({ level: 'need_evidence', file: null, candidate: null, lines: null });
  });

  it('says the change touched the failing line (diff impact in_hunk)', async () => {
    const at = await locator.locate(
      frame('inventory/measure.py', 1, null, 'python', 'UNITS = {"pcs": 1, "box": 12, "pallet": 480}'),
      {
        revision: v2,
        reportRevision: null,
        diffBase: null,
      },
    );

    expect(at.reasons).toContain('snippet unique in the file at line 1');
    expect(at.level).toBe('line');
    expect(at.diff_impact.kind).toBe('in_hunk');
  });

  it('says an untouched file is untouched', async () => {
    const at = await locator.locate(frame('ledger/ledger.go', 6, 'ledger.(*Ledger).Post', 'go'), {
      revision: v2,
      reportRevision: v2,
      diffBase: null,
    });

    expect(at.diff_impact.kind).toBe('untouched');
  });

  it('does not carry a line the change rewrote, even when the old text is still similar', async () => {
    const at = await locator.locate(frame('src/price.ts', 3, 'price', 'javascript'), {
      revision: v2,
      reportRevision: v1,
      diffBase: null,
    });

    expect(at.level).toBe('function');
    expect(at.function?.name).toBe('price');
    expect(at.reasons.join(' | ')).toMatch(/line 3 was rewritten/);
  });

  it('degrades when the frame’s snippet and its line disagree', async () => {
    const at = await locator.locate(frame('jobs/pipeline.py', 4, 'run', 'python', 'b = transform(a)'), {
      revision: v1,
      reportRevision: v1,
      diffBase: null,
    });

    expect(at.level).toBe('function');
    expect(at.reasons.join(' | ')).toMatch(/snippet found at line 3 but the reported line maps to 4/);
  });

  it('trusts a repeated line that the diff carried over exactly inside its function', async () => {
    const at = await locator.locate(frame('tools/dup.py', 6, null, 'python'), {
      revision: v2,
      reportRevision: v1,
      diffBase: null,
    });

    expect(at).toMatchObject({ level: 'line', file: 'tools/dup.py', lines: { start: 6, end: 6 } });
    expect(at.function?.name).toBe('second');
  });

  it('keeps going with diff impact unknown when the change’s diff cannot be read', async () => {
    const deps = await openLocatorDeps(repo.dir);
    const broken = createLocator({
      ...deps,
      diffs: {
        diff: async () => {
          throw new Error('unable to read tree');
        },
      },
    });
    try {
      const at = await broken.locate(frame('src/cart.ts', 14, 'Cart.total', 'javascript'), {
        revision: v2,
        reportRevision: v2,
        diffBase: null,
      });

      expect(at.level).toBe('line');
      expect(at.diff_impact.kind).toBe('unknown');
      expect(at.reasons.join(' | ')).toMatch(/diff could not be read \(unable to read tree\)/);
    } finally {
      await deps.close();
    }
  });
});
