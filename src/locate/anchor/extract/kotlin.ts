import type { Node } from 'web-tree-sitter';
import {
  firstNamedChildOfType,
  fixedScope,
  type Scope,
  type SpanRules,
  scopeNames,
  span,
  type Visit,
} from './walk.ts';

/**
 * Kotlin compiles to JVM frames: `Outer.method`, `Outer$Companion.create`, `Outer.<init>`, and
 * top-level functions as `FileKt.fn` (the file class is not in the source, so those are just
 * `fn`, which `byName` matches as a suffix). A local function is `outer$local` on the JVM.
 * The fwcd grammar has no field names, hence the child-type lookups.
 */
export const kotlinRules: SpanRules = {
  types: [
    'class_declaration',
    'object_declaration',
    'companion_object',
    'function_declaration',
    'secondary_constructor',
    'anonymous_initializer',
  ],
  visit(node: Node, scopes: readonly Scope[]): Visit | null {
    switch (node.type) {
      case 'class_declaration':
      case 'object_declaration':
        return { scope: fixedScope('class', firstNamedChildOfType(node, 'type_identifier')?.text ?? null) };
      case 'companion_object':
        return {
          scope: fixedScope('class', firstNamedChildOfType(node, 'type_identifier')?.text ?? 'Companion'),
        };
      case 'function_declaration':
        return functionVisit(node, scopes);
      default:
        return initVisit(node, scopes);
    }
  },
};

function functionVisit(node: Node, scopes: readonly Scope[]): Visit | null {
  const simple = firstNamedChildOfType(node, 'simple_identifier')?.text;
  if (simple === undefined) return null;
  const local = trailingFunctions(scopes);
  const own = [...local, simple].join('$');
  const owner = scopeNames(scopes, ['class']);
  const name = [...owner, own].join('.');
  // Abstract and interface functions have no body; their name still qualifies nothing.
  if (firstNamedChildOfType(node, 'function_body') === null) return null;
  const kind = local.length === 0 && owner.length > 0 ? 'method' : 'function';
  return { span: span(name, name, kind, node), scope: fixedScope('function', simple) };
}

/** The functions a local function sits in, after the innermost class. */
function trailingFunctions(scopes: readonly Scope[]): string[] {
  const names: string[] = [];
  for (let i = scopes.length - 1; i >= 0 && scopes[i]?.kind === 'function'; i--) {
    names.unshift((scopes[i] as Scope).name() ?? '');
  }
  return names;
}

function initVisit(node: Node, scopes: readonly Scope[]): Visit {
  const name = [...scopeNames(scopes, ['class']), '<init>'].join('.');
  return {
    span: span(name, name, node.type === 'secondary_constructor' ? 'constructor' : 'initializer', node),
  };
}
