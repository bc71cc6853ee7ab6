import type { Node } from 'web-tree-sitter';
import type { CodeSpan, SpanKind } from '../span.ts';
import { fixedScope, lazyScope, type Scope, type SpanRules, scopeNames, span, type Visit } from './walk.ts';

const CLASSES = ['class_declaration', 'abstract_class_declaration', 'class'];
const DECLARATIONS = ['function_declaration', 'generator_function_declaration'];
const EXPRESSIONS = ['arrow_function', 'function_expression', 'function', 'generator_function'];

/** Longest test title kept in a callback's name: enough to recognise it in a reason line. */
const MAX_TITLE = 80;

/**
 * TypeScript, TSX and JavaScript. V8 prints a method as `Receiver.method` (the receiver's
 * runtime class: `Cart.add`, `Object.load` for an object literal) and a plain function by its
 * name, including names inferred from `const f = () => …` and `{ f: function () {} }`; `name`
 * follows that with the container as written in the source. Callbacks passed anonymously get
 * no span (they print `<anonymous>`), except titled ones like `it('adds', () => …)`.
 */
export const javascriptRules: SpanRules = {
  types: [...CLASSES, 'object', ...DECLARATIONS, 'method_definition', ...EXPRESSIONS],
  visit(node: Node, scopes: readonly Scope[]): Visit | null {
    if (CLASSES.includes(node.type)) return { scope: lazyScope('class', () => className(node)) };
    if (node.type === 'object') return { scope: lazyScope('object', () => contextName(node)) };
    if (DECLARATIONS.includes(node.type)) return declarationVisit(node, scopes);
    if (node.type === 'method_definition') return methodVisit(node, scopes);
    return expressionVisit(node, scopes);
  },
};

function declarationVisit(node: Node, scopes: readonly Scope[]): Visit | null {
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return null;
  return named(name, null, 'function', node, node, scopes);
}

function methodVisit(node: Node, scopes: readonly Scope[]): Visit | null {
  const key = node.childForFieldName('name');
  if (key === null) return null;
  const container = scopes[scopes.length - 1];
  const member = keyText(key);
  const kind = member === 'constructor' && container?.kind === 'class' ? 'constructor' : 'method';
  return named(member, container?.name() ?? null, kind, withDecorators(node), node, scopes);
}

function expressionVisit(node: Node, scopes: readonly Scope[]): Visit | null {
  const own = node.childForFieldName('name')?.text;
  const parent = node.parent;
  if (parent === null) return null;
  if (parent.type === 'arguments') {
    // `memo(function Row() {})` is named `Row`; an anonymous argument only when titled.
    return own === undefined
      ? callbackVisit(node, parent, scopes)
      : named(own, null, 'function', node, node, scopes);
  }
  const context = assignedName(node, parent, scopes);
  if (own !== undefined)
    return named(own, context?.container ?? null, 'function', context?.from ?? node, node, scopes);
  if (context === null) return null;
  const kind = context.container === null ? 'function' : 'method';
  return named(context.name, context.container, kind, context.from, node, scopes);
}

interface Assigned {
  name: string;
  /** The class or object the function is a member of, when the source says so. */
  container: string | null;
  /** Where the definition starts (`const x =` may be a line above the arrow). */
  from: Node;
}

/** The name an anonymous function gets from where it is stored, as V8 infers it. */
function assignedName(node: Node, parent: Node, scopes: readonly Scope[]): Assigned | null {
  switch (parent.type) {
    case 'variable_declarator': {
      const name = parent.childForFieldName('name');
      return name?.type === 'identifier' ? { name: name.text, container: null, from: parent } : null;
    }
    case 'pair': {
      const key = parent.childForFieldName('key');
      return key === null
        ? null
        : { name: keyText(key), container: innermostName(scopes, 'object'), from: parent };
    }
    case 'public_field_definition':
    case 'field_definition': {
      const key = parent.childForFieldName('name') ?? parent.childForFieldName('property');
      return key === null
        ? null
        : { name: keyText(key), container: innermostName(scopes, 'class'), from: parent };
    }
    case 'assignment_expression':
      return parent.childForFieldName('right')?.id === node.id ? assignmentTarget(parent, scopes) : null;
    case 'export_statement':
      return { name: 'default', container: null, from: node };
    default:
      return null;
  }
}

/** `f = …`, `X.f = …`, `X.prototype.f = …`, `this.f = …`, `module.exports.f = …`. */
function assignmentTarget(assignment: Node, scopes: readonly Scope[]): Assigned | null {
  const left = assignment.childForFieldName('left');
  if (left?.type === 'identifier') return { name: left.text, container: null, from: assignment };
  if (left?.type !== 'member_expression') return null;
  const property = left.childForFieldName('property')?.text;
  if (property === undefined) return null;
  return {
    name: property,
    container: receiverName(left.childForFieldName('object'), scopes),
    from: assignment,
  };
}

function receiverName(object: Node | null, scopes: readonly Scope[]): string | null {
  if (object === null) return null;
  if (object.type === 'this') return innermostName(scopes, 'class');
  const text = object.text.replace(/\.prototype$/, '');
  if (text === 'exports' || text === 'module.exports' || !/^[\w$.]+$/.test(text)) return null;
  return text;
}

/** `it('adds', () => …)`, `describe("Cart", function () …)`, `app.get('/x', (req) => …)`. */
function callbackVisit(node: Node, args: Node, scopes: readonly Scope[]): Visit | null {
  const call = args.parent;
  const callee = call?.childForFieldName('function');
  const title = args.namedChild(0);
  if (call === null || callee === null || callee === undefined || title === null) return null;
  if (
    !/^(identifier|member_expression)$/.test(callee.type) ||
    !/^(string|template_string)$/.test(title.type)
  ) {
    return null;
  }
  const text = title.text.slice(1, -1);
  const shown = text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE)}…` : text;
  const name = `${callee.text}(${JSON.stringify(shown)})`;
  const qualified = [...scopeNames(scopes, ['callback']), name].join(' > ');
  return { span: span(name, qualified, 'callback', call, node), scope: fixedScope('callback', name) };
}

function named(
  simple: string,
  container: string | null,
  kind: SpanKind,
  from: Node,
  to: Node,
  scopes: readonly Scope[],
): Visit {
  const name = container === null ? simple : `${container}.${simple}`;
  const qualified = [
    ...qualifier(scopeNames(scopes, ['class', 'object', 'function']), container),
    simple,
  ].join('.');
  const result: CodeSpan = span(name, qualified, kind, from, to);
  return { span: result, scope: fixedScope('function', simple) };
}

/**
 * The lexical path above a member. The container is usually an open scope (`this.f = …` in a
 * constructor belongs to the class, not to `constructor`); `X.prototype.f = …` names another.
 */
function qualifier(path: string[], container: string | null): string[] {
  if (container === null) return path;
  const at = path.lastIndexOf(container);
  return at === -1 ? [...path, container] : path.slice(0, at + 1);
}

function className(node: Node): string | null {
  return node.childForFieldName('name')?.text ?? contextName(node);
}

/** What an object or class expression is called by the declaration, property or assignment holding it. */
function contextName(node: Node): string | null {
  const parent = node.parent;
  if (parent === null) return null;
  if (parent.type === 'variable_declarator') return parent.childForFieldName('name')?.text ?? null;
  if (parent.type === 'pair') {
    const key = parent.childForFieldName('key');
    return key === null ? null : keyText(key);
  }
  if (parent.type === 'assignment_expression') {
    const left = parent.childForFieldName('left');
    return left?.type === 'member_expression'
      ? (left.childForFieldName('property')?.text ?? null)
      : (left?.text ?? null);
  }
  return null;
}

function innermostName(scopes: readonly Scope[], kind: Scope['kind']): string | null {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i] as Scope;
    if (scope.kind === kind) return scope.name();
  }
  return null;
}

/** `'quoted'` and `"quoted"` keys are named without their quotes, as V8 does. */
function keyText(key: Node): string {
  return key.type === 'string' ? key.text.slice(1, -1) : key.text;
}

/** TypeScript puts method decorators before the method as siblings; they belong to the definition. */
function withDecorators(node: Node): Node {
  let first = node;
  for (let prev = node.previousNamedSibling; prev?.type === 'decorator'; prev = prev.previousNamedSibling) {
    first = prev;
  }
  return first;
}
