import type { Node } from 'web-tree-sitter';
import { fieldText, fixedScope, type Scope, type SpanRules, scopeNames, span, type Visit } from './walk.ts';

const CLASS_LIKE = [
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
];

/**
 * Java frames print `pkg.Outer$Inner.method`, `Outer.<init>`, `Outer.<clinit>`; names here are
 * the same without package and with `.` for `$`. Only classes qualify a name: a method of an
 * anonymous class inside `Outer.m` is `Outer.run` (the frame's `Outer$1.run` once `$1` is
 * dropped), and lambdas get no span of their own — `lambda$m$0` belongs to `m`.
 */
export const javaRules: SpanRules = {
  types: [
    ...CLASS_LIKE,
    'method_declaration',
    'constructor_declaration',
    'compact_constructor_declaration',
    'static_initializer',
  ],
  visit(node: Node, scopes: readonly Scope[]): Visit | null {
    if (CLASS_LIKE.includes(node.type)) return { scope: fixedScope('class', fieldText(node, 'name')) };
    const owner = scopeNames(scopes, ['class']);
    const member = memberName(node);
    if (member === null) return null;
    const name = [...owner, member].join('.');
    return { span: span(name, name, member.startsWith('<') ? memberKind(node) : 'method', node) };
  },
};

function memberName(node: Node): string | null {
  switch (node.type) {
    case 'method_declaration':
      // Abstract and interface methods have no body: nothing can run there.
      return node.childForFieldName('body') === null ? null : fieldText(node, 'name');
    case 'static_initializer':
      return '<clinit>';
    default:
      return '<init>';
  }
}

function memberKind(node: Node): 'constructor' | 'initializer' {
  return node.type === 'static_initializer' ? 'initializer' : 'constructor';
}
