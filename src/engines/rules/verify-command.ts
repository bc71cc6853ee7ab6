import type { Issue, Location } from '../../schemas/index.ts';

/**
 * The command that re-runs the failing test, from its test frame: what a reviewer pastes to
 * verify a fix. Null when the frame does not say enough (the plan then names the test only).
 */
export function rerunCommand(issue: Issue): string | null {
  const frame =
    issue.locations.find((l) => l.role === 'test' && !l.library) ?? issue.locations.find((l) => !l.library);
  if (frame === undefined) return null;
  const name = issue.test.name;
  switch (frame.language) {
    case 'python':
      return frame.function === null
        ? `pytest ${quote(frame.file)}`
        : `pytest ${quote(`${frame.file}::${frame.function.split('.').pop()}`)}`;
    case 'javascript':
      return `npx vitest run ${quote(frame.file)} -t ${quote(name)}`;
    case 'java':
      return javaCommand(frame);
    case 'go':
      return goCommand(frame);
    default:
      return null;
  }
}

function javaCommand(frame: Location): string | null {
  const match = /([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/.exec(frame.function ?? '');
  return match === null ? null : `mvn -q test -Dtest=${quote(`${match[1]}#${match[2]}`)}`;
}

function goCommand(frame: Location): string | null {
  const dir = frame.file.includes('/') ? `./${frame.file.slice(0, frame.file.lastIndexOf('/'))}` : '.';
  const test = /(Test\w+)/.exec(frame.function ?? '')?.[1];
  return test === undefined ? `go test ${dir}` : `go test ${dir} -run ${quote(`^${test}$`)}`;
}

/** POSIX single quotes, so test names with spaces or $ survive the shell. */
function quote(text: string): string {
  return /^[\w./:#=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
