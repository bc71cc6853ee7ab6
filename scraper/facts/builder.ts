import { describeError } from '../../src/errors/index.ts';
import type { Fact, Issue, Location } from '../../src/schemas/index.ts';
import type { EvidenceStore } from '../../src/store/evidence/index.ts';
import type { RawAttachment, RawFailure } from '../raw.ts';
import { parseStackTrace } from '../stack/index.ts';
import { decodeBytes } from '../text/index.ts';
import { classifyFailure } from './category.ts';

/** Longest value a fact carries inline; the whole text stays in the evidence store. */
export const MAX_FACT_CHARS = 500;
/** Steps beyond this many are counted in a warning rather than listed. */
export const MAX_STEP_FACTS = 20;
/** Frames kept per issue: project frames carry the diagnosis; a few library frames give context. */
const MAX_PROJECT_FRAMES = 20;
const MAX_LIBRARY_FRAMES = 5;
const OPERATION = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\S+/;

/**
 * Turns raw failures into facts-JSON issues, moving every large text into the evidence store.
 * Adapters hand failures in any order; `issues()` returns them in report order with ids by
 * position, so parallel DOM pages and sequential data reads give the same ids.
 */
export class FactsBuilder {
  private readonly byOrder = new Map<number, Issue>();

  constructor(private readonly store: EvidenceStore) {}

  add(order: number, raw: RawFailure): void {
    this.byOrder.set(order, this.toIssue(raw));
  }

  issues(): Issue[] {
    const ordered = [...this.byOrder.entries()].sort((a, b) => a[0] - b[0]);
    const width = Math.max(3, String(ordered.length).length);
    return ordered.map(([, issue], i) => ({ ...issue, id: String(i + 1).padStart(width, '0') }));
  }

  get count(): number {
    return this.byOrder.size;
  }

  private toIssue(raw: RawFailure): Issue {
    const warnings = [...raw.warnings];
    const facts: Fact[] = [
      { type: 'status', value: raw.status },
      ...optional('report_category', raw.report_category),
      ...this.messageFacts(raw),
      ...this.traceFacts(raw),
      ...optional('expected', raw.expected),
      ...optional('actual', raw.actual),
      ...this.stepFacts(raw, warnings),
      ...raw.attachments.flatMap((a) => this.attachmentFact(a, raw.url, warnings)),
      ...raw.parameters.map((p) => fact('parameter', p.value, p.name)),
      ...raw.labels.map((l) => fact('label', l.value, l.name)),
      ...raw.retries.map((r, i) =>
        fact('retry', r.message ? `${r.status}: ${r.message}` : r.status, `#${i + 1}`),
      ),
      ...(raw.flaky ? [fact('flaky', 'marked flaky by the report')] : []),
      ...(raw.duration_ms === null ? [] : [fact('duration', `${raw.duration_ms} ms`)]),
    ];
    if (raw.message === null) warnings.push('report shows no failure message');
    if (raw.trace === null) warnings.push('report shows no stack trace');
    const locations = this.locations(raw, warnings);
    if (raw.trace !== null && locations.length === 0)
      warnings.push('stack trace has no frame with a file location');
    const issue: Issue = {
      id: '',
      category: classifyFailure(raw.status, raw.message, raw.trace),
      status: raw.status,
      summary: clip(`${raw.name}: ${firstLine(raw.message) || raw.status}`, 200),
      test: { name: raw.name, full_name: raw.full_name, key: raw.key },
      url: raw.url,
      reached_by: raw.reached_by,
      facts,
      locations,
      warnings,
    };
    if (raw.source !== null) {
      issue.source_evidence = this.store.put(raw.source.text, {
        kind: raw.source.kind,
        source: raw.url,
        media_type: raw.source.kind === 'page_html' ? 'text/html' : 'application/json',
      });
    }
    return issue;
  }

  private messageFacts(raw: RawFailure): Fact[] {
    if (raw.message === null) return [];
    const head = firstLine(raw.message);
    const whole = raw.message.trim();
    if (whole === head && head.length <= MAX_FACT_CHARS) return [fact('error', head)];
    const evidence = this.store.put(raw.message, { kind: 'message', source: raw.url });
    return [{ type: 'error', value: clip(head, MAX_FACT_CHARS), evidence, truncated: true }];
  }

  private traceFacts(raw: RawFailure): Fact[] {
    if (raw.trace === null) return [];
    const evidence = this.store.put(raw.trace, { kind: 'trace', source: raw.url });
    const lines = raw.trace.split('\n').length;
    return [{ type: 'trace', value: `${clip(firstLine(raw.trace), 200)} (${lines} lines)`, evidence }];
  }

  private stepFacts(raw: RawFailure, warnings: string[]): Fact[] {
    // The failed path is what matters; passed steps only add noise.
    const notPassed = raw.steps.filter((s) => s.status !== null && s.status !== 'passed');
    if (notPassed.length > MAX_STEP_FACTS) {
      warnings.push(`${notPassed.length - MAX_STEP_FACTS} more failed steps not listed`);
    }
    const facts: Fact[] = [];
    for (const step of notPassed.slice(0, MAX_STEP_FACTS)) {
      const label = `${'  '.repeat(step.depth)}${step.name} [${step.status}]`;
      facts.push(fact('step', step.message ? `${label}: ${firstLine(step.message)}` : label));
    }
    for (const step of raw.steps) {
      if (OPERATION.test(step.name)) facts.push(fact('operation', clip(step.name, MAX_FACT_CHARS)));
    }
    return facts;
  }

  private attachmentFact(attachment: RawAttachment, url: string, warnings: string[]): Fact[] {
    if (attachment.body === null) {
      warnings.push(`attachment "${attachment.name}" could not be read: ${attachment.error ?? 'no body'}`);
      return [];
    }
    if (!isTextual(attachment.media_type)) {
      return [
        fact(
          'attachment',
          `${attachment.media_type ?? 'binary'}, ${attachment.body.length} bytes`,
          attachment.name,
        ),
      ];
    }
    const decoded = decodeBytes(attachment.body, attachment.declared_charset);
    const evidence = this.store.put(decoded.text, {
      kind: 'attachment',
      source: `${url} attachment "${attachment.name}"`,
      media_type: attachment.media_type ?? 'text/plain',
      ...(decoded.converted ? { original_encoding: decoded.encoding } : {}),
    });
    const preview = clip(decoded.text.trim(), MAX_FACT_CHARS);
    const type = /log|stdout|stderr|console|output/i.test(attachment.name) ? 'log' : 'attachment';
    return [
      {
        type,
        name: attachment.name,
        value: preview,
        evidence,
        truncated: preview.length < decoded.text.trim().length,
      },
    ];
  }

  private locations(raw: RawFailure, warnings: string[]): Location[] {
    if (raw.trace === null) return [];
    const hints = { testName: raw.name, ...(raw.full_name === null ? {} : { testFullName: raw.full_name }) };
    const onError = (err: unknown) => warnings.push(`stack trace could not be parsed: ${describeError(err)}`);
    return selectLocations(parseStackTrace(raw.trace, hints, onError));
  }
}

/** The whole trace stays in the evidence store; the facts keep the frames that matter. */
function selectLocations(frames: Location[]): Location[] {
  const project = frames.filter((f) => !f.library || f.role !== 'frame').slice(0, MAX_PROJECT_FRAMES);
  const library = frames.filter((f) => f.library && f.role === 'frame').slice(0, MAX_LIBRARY_FRAMES);
  return [...project, ...library].sort((a, b) => a.frame_index - b.frame_index);
}

function fact(type: Fact['type'], value: string, name?: string): Fact {
  return name === undefined ? { type, value } : { type, value, name };
}

function optional(type: Fact['type'], value: string | null): Fact[] {
  return value === null || value.trim() === '' ? [] : [fact(type, clip(value.trim(), MAX_FACT_CHARS))];
}

function firstLine(text: string | null): string {
  if (text === null) return '';
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function isTextual(mediaType: string | null): boolean {
  if (mediaType === null) return true;
  return /^text\/|json|xml|javascript|yaml|csv|x-log/i.test(mediaType);
}
