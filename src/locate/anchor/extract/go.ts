import type { Node } from 'web-tree-sitter';
import { fieldText, fixedScope, type Scope, type SpanRules, span, type Visit } from './walk.ts';

/**
 * Go frames print `pkg.Func`, `pkg.(*Type).Method` or `pkg.Type.Method`; names here are `Func`
 * and `Type.Method`. Closures (`Func.func1`) get no span and belong to their function — except
 * subtests: `t.Run("zero", func…)` inside `TestSub` is a `callback` span named `TestSub/zero`,
 * the name `go test` prints.
 */
export const goRules: SpanRules = {
  types: ['function_declaration', 'method_declaration', 'func_literal'],
  visit(node: Node, scopes: readonly Scope[]): Visit | null {
    if (node.type === 'func_literal') return subtest(node, scopes);
    const method = fieldText(node, 'name');
    if (method === null) return null;
    const receiver = node.type === 'method_declaration' ? receiverType(node) : null;
    const name = receiver === null ? method : `${receiver}.${method}`;
    return {
      span: span(name, name, receiver === null ? 'function' : 'method', node),
      scope: fixedScope('function', name),
    };
  },
};

/** `(l *Ledger)`, `(l Ledger)`, `(m *Map[K, V])`: the first type identifier is the type's name. */
function receiverType(node: Node): string | null {
  const receiver = node.childForFieldName('receiver');
  return receiver?.descendantsOfType('type_identifier')[0]?.text ?? null;
}

function subtest(node: Node, scopes: readonly Scope[]): Visit | null {
  const call = node.parent?.parent;
  if (call?.type !== 'call_expression' || node.parent?.type !== 'argument_list') return null;
  if (call.childForFieldName('function')?.childForFieldName('field')?.text !== 'Run') return null;
  const title = call.childForFieldName('arguments')?.namedChild(0);
  const parent = scopes[scopes.length - 1]?.name() ?? null;
  if (
    parent === null ||
    (title?.type !== 'interpreted_string_literal' && title?.type !== 'raw_string_literal')
  ) {
    return null;
  }
  // `go test` rewrites spaces in subtest names to underscores.
  const name = `${parent}/${title.text.slice(1, -1).replace(/ /g, '_')}`;
  return { span: span(name, name, 'callback', call, node), scope: fixedScope('callback', name) };
}
