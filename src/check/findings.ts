import type { CheckFinding, FindingCode } from '../schemas/index.ts';

/** Something unsupported or forbidden: the degrade removes or lowers what it points at. */
export function error(code: FindingCode, path: string, message: string): CheckFinding {
  return { code, severity: 'error', path, message };
}

/** Something worth telling the engine and the reader, which changes nothing in the diagnosis. */
export function warning(code: FindingCode, path: string, message: string): CheckFinding {
  return { code, severity: 'warning', path, message };
}

export function isError(finding: CheckFinding): boolean {
  return finding.severity === 'error';
}

/** True when `path` is `prefix` or lies below it: `why.1` covers `why.1.cites.0`, not `why.10`. */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`);
}

/** Draft text quoted in a message, bounded: messages go back to the engine and onto the report page. */
export function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
