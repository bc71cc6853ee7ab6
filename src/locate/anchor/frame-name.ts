/**
 * A frame's function text reduced to name segments comparable with a span's `qualified` name.
 * Each rule undoes one runtime's decoration; the dialects are those the scraper keeps verbatim
 * (scraper/stack/*.ts): JVM `pkg.Outer$Inner.m`, `lambda$m$0`, `<init>`; Go
 * `path/pkg.(*T).M.func1`, subtests `TestX/case`; V8 `async f`, `new C`, `Obj.f [as g]`,
 * `<anonymous>`; Python `<module>`.
 */
export interface FrameName {
  /** Candidate segment paths, most literal first: `new Cart` → `Cart.constructor`, then `Cart`. */
  paths: string[][];
  /** A Go subtest as `go test` prints it (`TestSub/zero`), to match a `callback` span by name. */
  subtest: string | null;
}

/** `cart.TestSub/zero`, `TestSub/zero/nested`: a test function followed by a subtest path. */
const GO_SUBTEST = /^(.*?(?:^|[./])(?:Test|Benchmark|Fuzz|Example)\w*)\/(.+)$/;

/** Segments that are the runtime's numbering, not names: Go closures and defer wrappers, `$1`. */
const NUMBERING = /^(?:func\d+|deferwrap\d+|gowrap\d+|\d+)$/;

/** Frames that name no definition: `<anonymous>`, `<module>`, `<lambda>`, `<listcomp>`… */
const UNNAMED = /<(?!init>|clinit>)[^>]*>/;

export function parseFrameFunction(text: string): FrameName | null {
  let rest = stripCallDecoration(text.trim());
  const constructed = /^new\s+/.test(rest);
  if (constructed) rest = rest.replace(/^new\s+/, '');
  if (UNNAMED.test(rest) || /(?:^|\.)glob\.\./.test(rest) || /(?:^|[.$])access\$\d+$/.test(rest)) return null;
  const sub = GO_SUBTEST.exec(rest);
  if (sub) rest = sub[1] as string;
  rest = rest.slice(rest.lastIndexOf('/') + 1);
  const segments = toSegments(rest);
  if (segments.length === 0) return null;
  const subtest = sub ? `${segments[segments.length - 1]}/${(sub[2] as string).replace(/ /g, '_')}` : null;
  const paths = constructed ? [[...segments, 'constructor'], segments] : [segments];
  return { paths, subtest };
}

/** V8's `async ` and ` [as alias]`, Go's argument words `(0xc000012345, 0x2)`. */
function stripCallDecoration(text: string): string {
  return text
    .replace(/\s+\[as [^\]]*\]$/, '')
    .replace(/^(?:async|await)\s+/, '')
    .replace(/\((?!\*)[^()]*\)$/, '')
    .trim();
}

function toSegments(text: string): string[] {
  const undecorated = text
    .replace(/lambda\$([\w$]+?)\$\d+/g, (_match, method: string) => jvmLambdaOwner(method))
    .replace(/\$lambda[$-]\d+/g, '')
    .replace(/\(\*([^)]+)\)/g, '$1')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/(?:^|\.)(?:get|set) (?=[\w$#]+$)/, '.')
    .replace(/(?<=\w)\$(?=[A-Z0-9])/g, '.');
  const segments: string[] = [];
  for (const raw of undecorated.split('.')) {
    // A JVM local class `Outer$1Local` is `Local` in the source.
    const segment = raw.trim().replace(/^\d+(?=[A-Za-z_])/, '');
    if (segment === '' || segment === 'prototype' || NUMBERING.test(segment)) continue;
    segments.push(segment);
  }
  return segments;
}

/** `lambda$total$0` runs inside `total`; `lambda$new$0` in a constructor, `lambda$static$0` in `<clinit>`. */
function jvmLambdaOwner(method: string): string {
  if (method === 'new') return '<init>';
  if (method === 'static') return '<clinit>';
  return method;
}
