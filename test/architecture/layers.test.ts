/**
 * The shape of `src/`, checked on every run (the README's map of the code says the same in words):
 * - no import circle, between files or between folders;
 * - `core`, `lib`, `http`, `db` and `rails` import nothing from `modules` (a rail hands what it learns to
 *   handlers the owning module registers at wiring time); `core` and `lib` import nothing above them;
 * - the flows (`on-ramp`, `off-ramp`) reach fiat through the seam (`rails/fiat-rail.ts`, and
 *   `rails/fiat-rails.ts` for an environment's rail), never a module of one rail (`rails/pix/…`);
 * - a module reaches another module through its service, never its repo; pages (`web`) never reach a repo;
 * - SQL is written only in repo files (`repo.ts`, `*-repo.ts`) and in `db/`;
 * - nothing outside a repo exports a statement fragment (`*Sql`, `*Part`);
 * - a service re-exports no repo function: what it exports does something, or reads through a named function;
 * - no module-level mutable state: what the process wires lives in the context (see `moduleState`), no
 *   file in src/modules runs a statement at import, and every module is wired by its `module.ts` descriptor.
 * Each rule fails with the offending paths.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const FILES = sourceFiles(SRC).map((file) => relative(SRC, file));
const TEXT = new Map(FILES.map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));

/** Every relative import of a file (type-only ones too: they are still a dependency), as a path under src/. */
function importsOf(file: string): string[] {
  const text = TEXT.get(file) ?? '';
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(join(SRC, file)), specifier)));
}
const IMPORTS = new Map(FILES.map((file) => [file, importsOf(file)]));

/**
 * The unit of ownership a file belongs to: `modules/<domain>`, `rails/<rail>`, `web/<part>`, or a top
 * folder; a file lying loose in `src/`, `src/modules/` or `src/web/` (the wiring, the config) is its own.
 */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return file;
  if (parts[0] === 'modules' || parts[0] === 'rails' || parts[0] === 'web') {
    return parts.length > 2 ? parts.slice(0, 2).join('/') : file;
  }
  return parts[0]!;
}

const isRepo = (file: string) => /(^|\/)([a-z-]+-)?repo\.ts$/.test(file);

/** The import cycles of a graph, each as the path that closes it (Tarjan's strongly connected components). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

function offending(from: (file: string) => boolean, to: (target: string, file: string) => boolean) {
  return FILES.filter(from).flatMap((file) =>
    (IMPORTS.get(file) ?? []).filter((target) => to(target, file)).map((target) => `${file} -> ${target}`),
  );
}

/** Methods that change a Map, Set, WeakMap, WeakSet or array in place. */
const MUTATORS = new Set([
  'set',
  'add',
  'delete',
  'clear',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
]);
const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);

/**
 * The module-level mutable state of a file, each as `file: name`. Refused, at the top level of a file:
 * - a `let` or `var` (reassigned state, whatever it holds);
 * - a `const` holding a `new Map/Set/WeakMap/WeakSet(...)` or an array literal that the file changes:
 *   calls one of `MUTATORS` on it, or assigns one of its elements (`NAME[...] =`).
 * A constant table (a `const` collection filled by its initializer and never changed) is allowed, as are
 * objects created once and never reassigned (a metric, a formatter, a RegExp): they hold no wiring.
 */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, TEXT.get(file) ?? '', ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const collections = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      const name = declaration.name.getText(source);
      const init = declaration.initializer;
      if (!constant) found.push(`${file}: let ${name}`);
      else if (
        init &&
        ts.isIdentifier(declaration.name) &&
        (ts.isArrayLiteralExpression(init) ||
          (ts.isNewExpression(init) && COLLECTIONS.has(init.expression.getText(source))))
      ) {
        collections.add(name);
      }
    }
  }
  const changed = new Set<string>();
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      collections.has(node.expression.expression.text) &&
      MUTATORS.has(node.expression.name.text)
    ) {
      changed.add(node.expression.expression.text);
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
      ts.isElementAccessExpression(node.left) &&
      ts.isIdentifier(node.left.expression) &&
      collections.has(node.left.expression.text)
    ) {
      changed.add(node.left.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found, ...[...changed].map((name) => `${file}: ${name} (changed)`)];
}

/**
 * Module-level state kept on purpose: caches and process-wide generators whose content is derived from
 * their key (or is the process's own randomness), never wiring. Losing any of them changes speed, not
 * behaviour. Exact: an entry that no longer offends fails too, so the list only shrinks.
 */
const KEPT_STATE: Record<string, string> = {
  'core/ids.ts: let poolOffset': "the random bytes' pool of id generation (one per process)",
  'core/ids.ts: let lastMs': 'ids stay ordered within a process: the last millisecond used',
  'core/ids.ts: let sequence': 'ids stay ordered within a process: the counter within a millisecond',
  'lib/secrets.ts: let poolOffset': "the random bytes' pool of secret generation (one per process)",
  'db/one-statement.ts: let cachedTexts': 'how many combined statement texts the bounded cache holds',
  'modules/web-users/credentials.ts: let decoy':
    'the decoy password hash, computed once (timing of unknown accounts)',
  'main.ts: let log': "the process's logger, replaced once the configuration names its level",
  'modules/documents/multipart.ts: readUploads (changed)': 'an upload read once per request (weakly keyed)',
  'modules/screening/lists.ts: built (changed)': 'match indexes built from list versions that never change',
  'modules/screening/matcher.ts: scratch (changed)': 'per match index, a scratch array reused by every query',
  'modules/webhooks/sender.ts: pools (changed)': 'kept-alive connection pools per receiver (bounded, LRU)',
  'web/pages/console/frame.ts: chainAlerts (changed)': "a console request's open alerts (weakly keyed)",
};

const isService = (file: string) => file.startsWith('modules/') && /(^|\/)([a-z-]+-)?service\.ts$/.test(file);
const isRepoSpecifier = (specifier: string) => /(^|\/)([a-z-]+-)?repo(\.ts)?$/.test(specifier);

/**
 * A service file's re-exports of its repo's values, each as `file: name`. Refused: `export * from` a repo,
 * `export { f } from` a repo (a `type` re-export is allowed: a type does nothing, it names the fact the
 * service hands over), `export { f }` of a value imported from a repo, and `export const g = repo.f` (or
 * `= f`) aliasing one — except a typed fact (`*Fact`), the statement another module combines into its own.
 */
function repoReExports(file: string): string[] {
  const source = ts.createSourceFile(file, TEXT.get(file) ?? '', ts.ScriptTarget.Latest, true);
  const fromRepo = new Set<string>();
  const found: string[] = [];
  for (const statement of source.statements) {
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      isRepoSpecifier(statement.moduleSpecifier.text) &&
      !statement.importClause?.isTypeOnly
    ) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) fromRepo.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) if (!element.isTypeOnly) fromRepo.add(element.name.text);
      }
    }
  }
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const specifier = statement.moduleSpecifier;
      const elements =
        statement.exportClause && ts.isNamedExports(statement.exportClause)
          ? statement.exportClause.elements.filter((element) => !element.isTypeOnly)
          : null;
      if (specifier && ts.isStringLiteral(specifier) && isRepoSpecifier(specifier.text)) {
        if (!elements) found.push(`${file}: export * from ${specifier.text}`);
        else for (const element of elements) found.push(`${file}: ${element.name.text}`);
      } else if (!specifier && elements) {
        for (const element of elements) {
          const local = (element.propertyName ?? element.name).getText(source);
          if (fromRepo.has(local)) found.push(`${file}: ${element.name.text}`);
        }
      }
    }
    if (
      ts.isVariableStatement(statement) &&
      statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer;
        const root = init && (ts.isPropertyAccessExpression(init) ? init.expression : init);
        const name = declaration.name.getText(source);
        if (root && ts.isIdentifier(root) && fromRepo.has(root.text) && !name.endsWith('Fact')) {
          found.push(`${file}: ${name}`);
        }
      }
    }
  }
  return found;
}

describe('layers', () => {
  it('has no import circle between files', () => {
    const graph = new Map(FILES.map((file) => [file, new Set(IMPORTS.get(file))]));
    expect(cycles(graph)).toEqual([]);
  });

  it('has no import circle between folders', () => {
    const graph = new Map<string, Set<string>>();
    for (const file of FILES) {
      const from = folderOf(file);
      const targets = graph.get(from) ?? new Set<string>();
      for (const target of IMPORTS.get(file) ?? []) {
        if (folderOf(target) !== from) targets.add(folderOf(target));
      }
      graph.set(from, targets);
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the adapters to the outside world in src/rails, outside src/modules', () => {
    const rails = (under: string) => FILES.filter((file) => file.startsWith(under)).length;
    expect([rails('rails/pix/'), rails('rails/chains/')].every((count) => count > 0)).toBe(true);
    expect(FILES.filter((file) => file.startsWith('modules/rails/'))).toEqual([]);
  });

  it.each(['core', 'lib', 'http', 'db', 'rails'])('src/%s imports nothing from src/modules', (folder) => {
    expect(
      offending(
        (file) => file.startsWith(`${folder}/`),
        (target) => target.startsWith('modules/'),
      ),
    ).toEqual([]);
  });

  it('the flows (on-ramp, off-ramp) reach fiat only through the seam, never a fiat rail of their own', () => {
    // the seam and the choice of an environment's rail; the chains are the stablecoin side, not fiat
    const seam = ['rails/fiat-rail.ts', 'rails/fiat-rails.ts'];
    expect(
      offending(
        (file) => file.startsWith('modules/on-ramp/') || file.startsWith('modules/off-ramp/'),
        (target) =>
          target.startsWith('rails/') && !seam.includes(target) && !target.startsWith('rails/chains/'),
      ),
    ).toEqual([]);
  });

  it.each(['core', 'lib'])('src/%s imports nothing from the layers above it', (folder) => {
    expect(
      offending(
        (file) => file.startsWith(`${folder}/`),
        (target) => !target.startsWith('core/') && !target.startsWith(`${folder}/`),
      ),
    ).toEqual([]);
  });

  it("a module calls another module's service, never its repo", () => {
    expect(
      offending(
        (file) => file.startsWith('modules/'),
        (target, file) => isRepo(target) && folderOf(target) !== folderOf(file),
      ),
    ).toEqual([]);
  });

  it('pages call services, never a repo', () => {
    expect(
      offending(
        (file) => file.startsWith('web/'),
        (target) => isRepo(target),
      ),
    ).toEqual([]);
  });

  it('writes SQL only in repo files and src/db', () => {
    const statement =
      /\b(SELECT\s[\s\S]*?\sFROM\s|SELECT\s+pg_\w+\(|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\()/;
    const withSql = FILES.filter((file) => !isRepo(file) && !file.startsWith('db/')).filter((file) =>
      [...(TEXT.get(file) ?? '').matchAll(/`[^`]*`|'[^'\n]*'|"[^"\n]*"/g)].some((literal) =>
        statement.test(literal[0]),
      ),
    );
    expect(withSql).toEqual([]);
  });

  it('exports no statement fragment (*Sql, *Part) outside a repo file', () => {
    const exported = FILES.filter((file) => !isRepo(file) && !file.startsWith('db/')).flatMap((file) =>
      [
        ...(TEXT.get(file) ?? '').matchAll(
          /export\s+(?:const|function|async function)\s+(\w+(?:Sql|Part))\b|export\s*\{([^}]*)\}/g,
        ),
      ].flatMap((m) =>
        m[1]
          ? [`${file}: ${m[1]}`]
          : (m[2] ?? '')
              .split(',')
              .map((name) =>
                name
                  .trim()
                  .split(/\s+as\s+/)
                  .pop()!
                  .replace(/^type\s+/, ''),
              )
              .filter((name) => /(Sql|Part)$/.test(name))
              .map((name) => `${file}: ${name}`),
      ),
    );
    expect(exported).toEqual([]);
  });

  it("a service is more than its repo's functions under another name", () => {
    const passThroughs = FILES.filter(isService).filter((file) => {
      const rest = (TEXT.get(file) ?? '')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/import\s[\s\S]*?from\s+'[^']+';/g, '')
        .replace(/export\s+(type\s+)?\{[^}]*\}\s+from\s+'[^']*repo\.ts';/g, '');
      return rest.trim() === '';
    });
    expect(passThroughs).toEqual([]);
  });

  it('a service re-exports no value of a repo: what it exports does something or reads through a named function', () => {
    expect(FILES.filter(isService).flatMap(repoReExports)).toEqual([]);
  });

  it('cites only what the repository holds: no comment sends a reader to a file outside it', () => {
    const outside = /\b(PRODUCT|ARCHITECTURE)\.md\b/;
    expect(FILES.filter((file) => outside.test(TEXT.get(file) ?? ''))).toEqual([]);
  });

  it('src/workers only schedules: it holds no job bodies', () => {
    const files = FILES.filter((file) => file.startsWith('workers/'));
    expect(files.sort()).toEqual(['workers/index.ts', 'workers/loop.ts']);
  });
  it('keeps no module-level mutable state: a registry lives in the composed context, not filled at import', () => {
    const state = FILES.flatMap(moduleState);
    expect(state.filter((entry) => !(entry in KEPT_STATE))).toEqual([]);
    expect(Object.keys(KEPT_STATE).filter((entry) => !state.includes(entry))).toEqual([]);
  });
  it('runs nothing at import in src/modules: no top-level call registers a handler or fills a table', () => {
    const statements = FILES.filter((file) => file.startsWith('modules/')).flatMap((file) => {
      const source = ts.createSourceFile(file, TEXT.get(file) ?? '', ts.ScriptTarget.Latest, true);
      return source.statements
        .filter((statement) => ts.isExpressionStatement(statement) || ts.isForOfStatement(statement))
        .map((statement) => `${file}: ${statement.getText(source).split('\n')[0]}`);
    });
    expect(statements).toEqual([]);
  });

  it('wires every module folder by its one descriptor, composed in modules/index.ts', () => {
    const folders = [...new Set(FILES.filter((file) => /^modules\/[^/]+\//.test(file)).map(folderOf))];
    const composed = IMPORTS.get('modules/index.ts') ?? [];
    const wired = folders.filter((folder) => composed.includes(`${folder}/module.ts`));
    // the ledger and the limits only serve other modules (no route, offer or job of their own)
    expect(folders.filter((folder) => !wired.includes(folder)).sort()).toEqual([
      'modules/ledger',
      'modules/limits',
    ]);
  });
});
