import type { EnvironmentField } from './config.ts';
import type { Fields, Row } from './dom.ts';

export interface EnvironmentFact {
  name: string;
  value: string;
}

/** The fields to extract for the configured environment entries, keyed by position. */
export function environmentFields(fields: readonly EnvironmentField[]): Fields {
  return Object.fromEntries(fields.map((f, i) => [`env${i}`, { css: f.selector, take: 'text' as const }]));
}

/** Environment facts from extracted fields; one the page does not show becomes a warning. */
export function readEnvironment(
  shown: Row,
  fields: readonly EnvironmentField[],
  warnings: string[],
  where: string,
): EnvironmentFact[] {
  const facts: EnvironmentFact[] = [];
  for (const [i, field] of fields.entries()) {
    const value = shown[`env${i}`];
    if (value === null || value === undefined || value === '') {
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
