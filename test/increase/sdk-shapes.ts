/**
 * Increase's published shapes as its official SDK (npm `increase`) types them, checked at run time: the
 * simulator reads the SDK's own declaration files with the TypeScript compiler and walks the declared type
 * of each route's parameters (and of each answer it gives) against the value on the wire. No second copy of
 * the shapes is written here, so a field the SDK would not send, a missing required one, a value outside an
 * enum, or a wrong type fails — and an SDK upgrade changes what is checked with it.
 *
 * Requests are held to the named fields only: the SDK's generated parameter types carry an open index
 * signature on some objects (`[k: string]: unknown`), but a field Increase does not document is a mistake on
 * our side. Answers keep the open signature (Increase adds fields to objects over time).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SDK_ROOT = fileURLToPath(new URL('../../node_modules/increase/', import.meta.url));

export type ShapeName = { file: string; type: string };

export type ShapeChecker = {
  /** Violations of a JSON body (or answer) against the named SDK type, each as `path: problem`. */
  body(shape: ShapeName, value: unknown, mode: 'request' | 'answer'): string[];
  /** Violations of a query string as the SDK writes it (`qs`, dots for nesting, commas for arrays). */
  query(shape: ShapeName, search: URLSearchParams): string[];
};

type Mode = 'request' | 'answer' | 'query';

export function createShapeChecker(files: readonly string[]): ShapeChecker {
  const roots = files.map((file) => `${SDK_ROOT}${file}.d.ts`);
  const program = ts.createProgram(roots, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const types = new Map<string, ts.Type>();

  function typeOf(shape: ShapeName): ts.Type {
    const key = `${shape.file}#${shape.type}`;
    const known = types.get(key);
    if (known) return known;
    const source = program.getSourceFile(`${SDK_ROOT}${shape.file}.d.ts`);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`the SDK has no ${shape.file}.d.ts`);
    const [head, ...rest] = shape.type.split('.');
    let symbol = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === head);
    for (const part of rest)
      symbol = symbol && checker.getExportsOfModule(symbol).find((s) => s.name === part);
    if (!symbol) throw new Error(`the SDK's ${shape.file} exports no ${shape.type}`);
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    types.set(key, type);
    return type;
  }

  const isPlainObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);

  function check(value: unknown, type: ts.Type, path: string, mode: Mode, errors: string[]): void {
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    if (type.isUnion()) {
      // an optional field's `T | undefined`: a present value is checked against T itself, for a precise path
      const present = type.types.filter((member) => !(member.flags & ts.TypeFlags.Undefined));
      const [only] = present;
      if (value !== undefined && present.length === 1 && only) {
        check(value, only, path, mode, errors);
        return;
      }
      for (const member of type.types) {
        const attempt: string[] = [];
        check(value, member, path, mode, attempt);
        if (attempt.length === 0) return;
      }
      errors.push(`${path}: ${JSON.stringify(value)} is not ${checker.typeToString(type)}`);
      return;
    }
    const fail = () => errors.push(`${path}: ${JSON.stringify(value)} is not ${checker.typeToString(type)}`);
    if (flags & ts.TypeFlags.Undefined) return void (value === undefined || fail());
    if (flags & ts.TypeFlags.Null) return void (value === null || fail());
    if (type.isStringLiteral()) return void (value === type.value || fail());
    if (type.isNumberLiteral()) {
      return void (value === type.value || (mode === 'query' && value === String(type.value)) || fail());
    }
    if (flags & ts.TypeFlags.BooleanLiteral) {
      const expected = checker.typeToString(type) === 'true';
      return void (value === expected || (mode === 'query' && value === String(expected)) || fail());
    }
    if (flags & ts.TypeFlags.String) return void (typeof value === 'string' || fail());
    if (flags & ts.TypeFlags.Number) {
      const ok =
        (typeof value === 'number' && Number.isFinite(value)) ||
        (mode === 'query' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value));
      return void (ok || fail());
    }
    if (checker.isArrayType(type)) {
      const items = mode === 'query' && typeof value === 'string' ? value.split(',') : value;
      if (!Array.isArray(items)) return void fail();
      const [item] = checker.getTypeArguments(type as ts.TypeReference);
      items.forEach((entry, i) => {
        if (item) check(entry, item, `${path}/${i}`, mode, errors);
      });
      return;
    }
    if (flags & ts.TypeFlags.Object) {
      if (!isPlainObject(value)) return void fail();
      const properties = checker.getPropertiesOfType(type);
      const named = new Set(properties.map((p) => p.name));
      for (const property of properties) {
        const entry = value[property.name];
        if (entry === undefined) {
          if (!(property.flags & ts.SymbolFlags.Optional)) errors.push(`${path}/${property.name}: required`);
          continue;
        }
        check(entry, checker.getTypeOfSymbol(property), `${path}/${property.name}`, mode, errors);
      }
      const index = checker
        .getIndexInfosOfType(type)
        .find((info) => info.keyType.flags & ts.TypeFlags.String);
      for (const key of Object.keys(value)) {
        if (named.has(key)) continue;
        if (mode === 'answer' && index) check(value[key], index.type, `${path}/${key}`, mode, errors);
        else errors.push(`${path}/${key}: not a field of ${checker.typeToString(type)}`);
      }
      return;
    }
    errors.push(`${path}: the checker does not know ${checker.typeToString(type)}`);
  }

  /** `a.b=1&c=x,y` back into `{a: {b: '1'}, c: 'x,y'}`, as the SDK's `qs` (allowDots, comma arrays) wrote it. */
  function parseQuery(search: URLSearchParams): Record<string, unknown> {
    const root: Record<string, unknown> = {};
    for (const [key, value] of search) {
      const parts = key.split('.');
      let at = root;
      for (const part of parts.slice(0, -1)) {
        const next = at[part];
        if (isPlainObject(next)) {
          at = next;
        } else {
          const nested: Record<string, unknown> = {};
          at[part] = nested;
          at = nested;
        }
      }
      at[parts.at(-1) as string] = value;
    }
    return root;
  }

  return {
    body(shape, value, mode) {
      const errors: string[] = [];
      check(value, typeOf(shape), '', mode, errors);
      return errors;
    },
    query(shape, search) {
      const errors: string[] = [];
      check(parseQuery(search), typeOf(shape), '', 'query', errors);
      return errors;
    },
  };
}
