import type { Node } from 'web-tree-sitter';
import { fieldText, fixedScope, type Scope, type SpanRules, scopeNames, span, type Visit } from './walk.ts';

/**
 * Python tracebacks print only the `def` name (`co_name`), so `name` is that; `qualified` is
 * the lexical path (`Cart.total.inner`, i.e. `__qualname__` without `<locals>`). Lambdas have
 * no span: their frames print `<lambda>`, which names nothing.
 */
export const pythonRules: SpanRules = {
  types: ['class_definition', 'function_definition'],
  visit(node: Node, scopes: readonly Scope[]): Visit | null {
    const name = fieldText(node, 'name');
    if (node.type === 'class_definition') return { scope: fixedScope('class', name) };
    if (name === null) return null;
    const qualified = [...scopeNames(scopes, ['class', 'function']), name].join('.');
    const kind = scopes[scopes.length - 1]?.kind === 'class' ? 'method' : 'function';
    // Decorators belong to the definition: a change to them is a change to the function.
    const parent = node.parent;
    const from = parent?.type === 'decorated_definition' ? parent : node;
    return { span: span(name, qualified, kind, from, node), scope: fixedScope('function', name) };
  },
};
