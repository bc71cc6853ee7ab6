import type { EnvironmentField } from './config.ts';
import { type Scope, textOf } from './dom.ts';

export interface EnvironmentFact {
  name: string;
  value: string;
}

/** Reads the configured environment fields; a field the page does not show becomes a warning. */
export async function readEnvironment(
  scope: Scope,
  fields: readonly EnvironmentField[],
  warnings: string[],
  where: string,
): Promise<EnvironmentFact[]> {
  const facts: EnvironmentFact[] = [];
  for (const field of fields) {
    const value = await textOf(scope, field.selector);
    if (value === null || value === '') {
      warnings.push(`${where}: environment "${field.name}" not shown ("${field.selector}")`);
    } else {
      facts.push({ name: field.name, value });
    }
  }
  return facts;
}

/** Distinct environment facts in first-seen order: detail pages repeat the same runner. */
export class EnvironmentCollector {
  private readonly seen = new Map<string, EnvironmentFact>();

  add(facts: readonly EnvironmentFact[]): void {
    for (const fact of facts) {
      const key = `${fact.name}\u0000${fact.value}`;
      if (!this.seen.has(key)) this.seen.set(key, fact);
    }
  }

  facts(): EnvironmentFact[] {
    return [...this.seen.values()];
  }
}
