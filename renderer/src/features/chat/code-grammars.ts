/**
 * The grammars prism-react-renderer 2 bundles (its Prism.languages, less the helpers extend,
 * insertBefore and DFS), listed here so that choosing one does not load Prism: the highlighter is
 * a chunk of its own (LazyHighlightedCode). test/unit/renderer/code-grammars.test.ts holds this
 * list to Prism's.
 */
export const GRAMMARS: ReadonlySet<string> = new Set([
  'plain', 'plaintext', 'text', 'txt', 'markup', 'html', 'mathml', 'svg', 'xml', 'ssml', 'atom', 'rss', 'regex', 'clike',
  'javascript', 'js', 'actionscript', 'coffeescript', 'coffee', 'javadoclike', 'css', 'yaml', 'yml', 'markdown', 'md',
  'graphql', 'sql', 'typescript', 'ts', 'jsdoc', 'flow', 'n4js', 'n4jsd', 'jsx', 'tsx', 'swift', 'kotlin', 'kt', 'kts',
  'c', 'objectivec', 'objc', 'reason', 'rust', 'go', 'cpp', 'python', 'py', 'json', 'webmanifest',
]);
