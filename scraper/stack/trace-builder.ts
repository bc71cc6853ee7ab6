import { MAX_FRAMES } from './limits.ts';
import type { ParsedFrame, ParsedTrace } from './types.ts';

/** How a language prints a trace, which decides the throw order. */
export interface PrintOrder {
  /** Java, JS, Go print the raising frame first; Python prints it last. */
  innermost: 'first' | 'last';
  /** Java and JS print the root cause last (`Caused by:`); Python prints it first; Go's panicking goroutine is first. */
  rootCause: 'first' | 'last';
}

/**
 * Collects frames section by section (exception, cause, goroutine) and caps them, so every
 * dialect shares one notion of sections and throw order.
 */
export class TraceBuilder {
  private readonly frames: ParsedFrame[] = [];
  private readonly secondary = new Set<number>();
  private section = 0;
  private sectionHasFrames = false;

  get full(): boolean {
    return this.frames.length >= MAX_FRAMES;
  }

  /** Starts a new exception/cause block; secondary blocks (Suppressed:) never hold the failure. */
  startSection(secondary = false): void {
    if (this.sectionHasFrames) {
      this.section += 1;
      this.sectionHasFrames = false;
    }
    if (secondary) this.secondary.add(this.section);
    else this.secondary.delete(this.section);
  }

  add(frame: Omit<ParsedFrame, 'section'>): void {
    if (this.full) return;
    this.frames.push({ ...frame, section: this.section });
    this.sectionHasFrames = true;
  }

  last(): ParsedFrame | undefined {
    return this.frames[this.frames.length - 1];
  }

  build(order: PrintOrder): ParsedTrace {
    const sections = this.sectionsInCauseOrder(order);
    const failureOrder = sections
      .filter((s) => !this.secondary.has(s))
      .flatMap((s) => this.indicesInThrowOrder(s, order));
    const searchOrder = [
      ...failureOrder,
      ...sections.filter((s) => this.secondary.has(s)).flatMap((s) => this.indicesInThrowOrder(s, order)),
    ];
    return { frames: this.frames, failureOrder, searchOrder };
  }

  private sectionsInCauseOrder(order: PrintOrder): number[] {
    const printed = [...new Set(this.frames.map((f) => f.section))];
    return order.rootCause === 'first' ? printed : printed.reverse();
  }

  private indicesInThrowOrder(section: number, order: PrintOrder): number[] {
    const indices = this.frames.flatMap((f, i) => (f.section === section ? [i] : []));
    return order.innermost === 'first' ? indices : indices.reverse();
  }
}
