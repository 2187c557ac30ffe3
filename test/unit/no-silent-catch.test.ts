/**
 * The house rule harbor/no-silent-catch (scripts/no-silent-catch.mjs): an empty catch block, or a
 * `.catch()` whose handler drops the error, must say why in a comment beside it. RuleTester runs
 * the rule itself on each case; house-rules.test.ts-style probes below prove eslint.config.js turns
 * it on for main/ and preload/ and not elsewhere.
 */
import { join } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import noSilentCatch from '../../scripts/no-silent-catch.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });

const empty = [{ messageId: 'emptyCatch' }];
const handler = [{ messageId: 'silentHandler' }];

tester.run('harbor/no-silent-catch', noSilentCatch, {
  valid: [
    // Handled: the block does something.
    'try { f(); } catch (error) { report(error); }',
    'try { f(); } catch { return undefined; }',
    // Empty, with the reason inside the block, on the catch line, or on the line before it.
    'try { f(); } catch {\n  // gone since: nothing to remove\n}',
    'try { f(); } catch { /* already closed */ }',
    'try {\n  f();\n} catch {} // exited in between',
    'try {\n  f();\n  // a failure here only costs the cache\n} catch {}',
    // A handler that uses the error, or calls something, is not silent.
    'p.catch((error) => log(error));',
    'p.catch(() => fallback());',
    'p.catch(() => { retry(); });',
    'p.then(() => undefined, () => undefined);',
    // Silent handlers with the reason on the same line, the line before, or before the statement.
    'p.catch(() => undefined); // its failure is reported by start()',
    '// the queue only orders\nq = p.catch(() => undefined);',
    'void conn\n  .request()\n  // polling follows the task anyway\n  .catch(() => undefined);',
    '// polling follows the task anyway\nvoid conn\n  .request()\n  .then(() => x)\n  .catch(() => undefined);',
    'await Promise.all([\n  a.catch(() => undefined), // closing: ends with the channel\n]);',
  ],
  invalid: [
    { code: 'try { f(); } catch {}', errors: empty },
    { code: 'try { f(); } catch (error) {}', errors: empty },
    { code: 'try {\n  f();\n} catch {\n}', errors: empty },
    // A comment two lines above is not beside it.
    { code: '// unrelated\n\ntry {\n  f();\n} catch {}', errors: empty },
    { code: 'try { f(); } catch {} finally { g(); }', errors: empty },
    { code: 'p.catch(() => undefined);', errors: handler },
    { code: 'p.catch(() => {});', errors: handler },
    { code: 'p.catch(() => null);', errors: handler },
    { code: 'p.catch(() => false);', errors: handler },
    { code: 'p.catch(() => [] as string[]);', errors: handler },
    { code: "p.catch(() => ({ status: 'unsigned' as const }));", errors: handler },
    { code: 'p.catch(function () {});', errors: handler },
    { code: 'p.catch(() => { return undefined; });', errors: handler },
    { code: 'p.catch((_error) => undefined);', errors: handler },
    { code: 'void p.catch(() => undefined);\nq.catch(() => undefined); // only this one says why', errors: [{ messageId: 'silentHandler', line: 1 }] },
    { code: 'async function f() {\n  await x.close().catch(() => undefined);\n}', errors: handler },
    // A comment inside an unrelated earlier statement does not count for a later one.
    { code: 'a(); // done\n\nvoid conn\n  .request()\n  .then(() => x)\n  .catch(() => undefined);', errors: handler },
  ],
});

describe('eslint.config.js turns harbor/no-silent-catch on in main/ and preload/', { timeout: 180_000 }, () => {
  const repoRoot = join(import.meta.dirname, '..', '..');
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: repoRoot, overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } } });
  });
  const fired = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(repoRoot, file) });
    expect((result?.messages ?? []).filter((m) => m.fatal)).toEqual([]);
    return (result?.messages ?? []).filter((m) => m.ruleId === 'harbor/no-silent-catch' && m.severity === 2).length;
  };
  const code = 'export async function probe(p: Promise<void>): Promise<void> {\n  try {\n    await p;\n  } catch {}\n  await p.catch(() => undefined);\n}\n';

  it.each(['main/host/errors.ts', 'main/cli/main.ts', 'preload/contract/errors.ts'])('fires in %s', async (file) => {
    expect(await fired(code, file)).toBe(2);
  });

  it('is off outside main/ and preload/ (tests drop errors on purpose all the time)', async () => {
    expect(await fired(code, 'test/helpers/host.ts')).toBe(0);
  });
});
