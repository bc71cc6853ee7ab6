import { MAX_FRAMES, OUTER_FRAMES_KEPT } from './limits.ts';
import type { ParsedFrame, ParsedTrace } from './types.ts';

/** How a language prints a trace, which decides the throw order. */
export interface PrintOrder {
  /** Java, JS, Go print the raising frame first; Python prints it last. */
  innermost: 'first' | 'last';
  /** Java and JS print the root cause last (`Caused by:`); Python prints it first; Go's panicking goroutine is first. */
  rootCause: 'first' | 'last';
}

export type FrameFields = Omit<ParsedFrame, 'section' | 'printedIndex'>;

/**
 * Collects frames section by section (exception, cause, goroutine), so every dialect shares one
 * notion of sections, throw order and output cap.
 */
export class TraceBuilder {
  private readonly frames: ParsedFrame[] = [];
  private readonly secondary = new Set<number>();
  private section = 0;
  private sectionHasFrames = false;

  /** Starts a new exception/cause block; secondary blocks (Suppressed:) never hold the failure. */
  startSection(secondary = false): void {
    if (this.sectionHasFrames) {
      this.section += 1;
      this.sectionHasFrames = false;
    }
    if (secondary) this.secondary.add(this.section);
    else this.secondary.delete(this.section);
  }

  add(frame: FrameFields): void {
    this.frames.push({ ...frame, section: this.section, printedIndex: this.frames.length });
    this.sectionHasFrames = true;
  }

  last(): ParsedFrame | undefined {
    return this.frames[this.frames.length - 1];
  }

  build(order: PrintOrder): ParsedTrace {
    const bySection = this.indicesBySection(order);
    const sections = [...bySection.keys()];
    if (order.rootCause === 'last') sections.reverse();
    const inThrowOrder = (s: number): number[] => bySection.get(s) ?? [];
    const failureOrder = sections.filter((s) => !this.secondary.has(s)).flatMap(inThrowOrder);
    const searchOrder = [
      ...failureOrder,
      ...sections.filter((s) => this.secondary.has(s)).flatMap(inThrowOrder),
    ];
    return this.cut(failureOrder, searchOrder);
  }

  /**
   * Keeps MAX_FRAMES: the innermost ones in throw order (where the error was raised) and a few
   * outermost (where the test called in), so both roles survive a deep recursion.
   */
  private cut(failureOrder: number[], searchOrder: number[]): ParsedTrace {
    if (this.frames.length <= MAX_FRAMES) return { frames: this.frames, failureOrder, searchOrder };
    const kept = new Set([
      ...searchOrder.slice(0, MAX_FRAMES - OUTER_FRAMES_KEPT),
      ...searchOrder.slice(-OUTER_FRAMES_KEPT),
    ]);
    const printed = [...kept].sort((a, b) => a - b);
    const position = new Map(printed.map((original, i) => [original, i]));
    const remap = (indices: number[]): number[] => indices.flatMap((i) => position.get(i) ?? []);
    return {
      frames: printed.flatMap((i) => this.frames[i] ?? []),
      failureOrder: remap(failureOrder),
      searchOrder: remap(searchOrder),
    };
  }

  /** Frame indices of each section (in printed section order), innermost first. */
  private indicesBySection(order: PrintOrder): Map<number, number[]> {
    const bySection = new Map<number, number[]>();
    this.frames.forEach((frame, i) => {
      const indices = bySection.get(frame.section) ?? [];
      indices.push(i);
      bySection.set(frame.section, indices);
    });
    if (order.innermost === 'last') for (const indices of bySection.values()) indices.reverse();
    return bySection;
  }
}
