// House rule harbor/no-silent-catch (eslint.config.js; docs/architecture.md §4): an error dropped on
// purpose says why, next to where it is dropped. Reported, unless a comment stands beside it:
//
//  1. a `catch` clause whose block holds no statement (empty, or comments only). Allowed when a
//     comment is inside the block, on the line of the `catch` keyword, or on the line just before it.
//  2. a `.catch(handler)` whose handler does nothing with the error: a function that takes no
//     parameter (or only `_`-named ones) and whose body is empty or one constant value (`undefined`,
//     `null`, `false`, `[]`, `{…}` of constants, `x as T`, `void 0`). Allowed when a comment is on
//     any line of the `.catch(…)` call, on the line just before it, or on the line just before the
//     statement that holds it.
//
// A comment that merely exists is the whole check: what it must say (why nothing is lost, or where
// the error is heard instead) is kept by review; the rule makes sure the question was answered.

/** A value computed without calling anything: what a handler returns when it drops the error. */
function isConstant(node) {
  if (!node) return true;
  switch (node.type) {
    case 'Literal':
    case 'Identifier':
      return true;
    case 'TemplateLiteral':
      return node.expressions.length === 0;
    case 'UnaryExpression':
      return isConstant(node.argument);
    case 'ArrayExpression':
      return node.elements.every((e) => e === null || isConstant(e));
    case 'ObjectExpression':
      return node.properties.every((p) => p.type === 'Property' && !p.computed && isConstant(p.value));
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'TSTypeAssertion':
      return isConstant(node.expression);
    default:
      return false;
  }
}

/** A handler that drops what it is given: no (used) parameter, and an empty body or one constant. */
function dropsTheError(handler) {
  if (handler.type !== 'ArrowFunctionExpression' && handler.type !== 'FunctionExpression') return false;
  if (!handler.params.every((p) => p.type === 'Identifier' && p.name.startsWith('_'))) return false;
  const body = handler.body;
  if (body.type !== 'BlockStatement') return isConstant(body);
  if (body.body.length === 0) return true;
  return body.body.length === 1 && body.body[0].type === 'ReturnStatement' && isConstant(body.body[0].argument);
}

/** The statement (or class member) that holds a node: the unit a comment "just before" belongs to. */
function holdingStatement(node) {
  let current = node;
  while (current.parent && !/Statement$|Declaration$|^PropertyDefinition$/.test(current.type)) current = current.parent;
  return current;
}

const noSilentCatch = {
  meta: {
    type: 'problem',
    docs: { description: 'An empty catch block or a .catch() that drops the error must say why in a comment beside it.' },
    schema: [],
    messages: {
      emptyCatch:
        'House rule (no silent catch): this catch block drops the error without a word. Handle it, log it with what was being done (the Host\'s LogSink), or say in a comment inside the block (or on the line of `catch` or the line before) why nothing is lost here.',
      silentHandler:
        'House rule (no silent catch): `.catch(…)` drops the error without a word. Handle it, log it with what was being done (the Host\'s LogSink), or say in a comment on this line (or the line before) why nothing is lost here.',
    },
  },
  create(context) {
    const source = context.sourceCode;
    const comments = source.getAllComments();
    /** A comment touching a line in [from, to]. */
    const commentOnLines = (from, to) => comments.some((c) => c.loc.end.line >= from && c.loc.start.line <= to);
    return {
      CatchClause(node) {
        if (node.body.body.length > 0) return;
        if (source.getCommentsInside(node.body).length > 0) return;
        const line = node.loc.start.line;
        if (commentOnLines(line - 1, line)) return;
        context.report({ node, messageId: 'emptyCatch' });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier' || callee.property.name !== 'catch') return;
        const [handler] = node.arguments;
        if (node.arguments.length !== 1 || !dropsTheError(handler)) return;
        const from = callee.property.loc.start.line;
        if (commentOnLines(from - 1, node.loc.end.line)) return;
        const statementLine = holdingStatement(node).loc.start.line;
        if (commentOnLines(statementLine - 1, statementLine - 1)) return;
        context.report({ node: callee.property, messageId: 'silentHandler' });
      },
    };
  },
};

export default noSilentCatch;
