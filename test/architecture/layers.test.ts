/**
 * The layers depend one way: `src/core` (what every layer may use) and `src/http` (Fastify plugins, with
 * their lookups injected) import nothing from `src/modules`; and a module reaches another module through
 * its service, never its repo.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** Every relative import of a file, as a path under src/. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)));
}

const under = (folder: string) =>
  sourceFiles(join(SRC, folder)).map((file) => [relative(SRC, file), imports(file)] as const);

describe('layers', () => {
  it.each(['core', 'http'])('src/%s imports nothing from src/modules', (folder) => {
    const offending = under(folder).flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith('modules/')).map((target) => `${file} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('src/core imports nothing from the layers above it', () => {
    const offending = under('core').flatMap(([file, targets]) =>
      targets.filter((target) => !target.startsWith('core/')).map((target) => `${file} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it("a module calls another module's service, never its repo.ts", () => {
    const domain = (path: string) =>
      path
        .split('/')
        .slice(0, path.startsWith('modules/rails/') ? 3 : 2)
        .join('/');
    const offending = under('modules').flatMap(([file, targets]) =>
      targets
        .filter((target) => /(^|\/)[a-z-]*repo\.ts$/.test(target) && domain(target) !== domain(file))
        .map((target) => `${file} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('src/workers only schedules: it holds no job bodies', () => {
    const files = sourceFiles(join(SRC, 'workers')).map((file) => relative(SRC, file));
    expect(files.sort()).toEqual(['workers/index.ts', 'workers/loop.ts']);
  });
});
