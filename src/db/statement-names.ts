/**
 * Names for server-side prepared statements. A named statement is parsed and planned once per
 * connection and then only bound and executed, which halves PostgreSQL's CPU per short query. The
 * service's SQL is a fixed set of texts, so each distinct text gets a short stable name; past
 * `capacity` distinct texts (SQL built at run time that never repeats) new texts run unnamed so that
 * neither this map nor each connection's statement cache grows without bound.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();

  constructor(readonly capacity = 1_000) {}

  /** The statement's name, or undefined when it should run unnamed. */
  nameFor(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    if (this.#names.size >= this.capacity) return undefined;
    const name = `ponte_${this.#names.size}`;
    this.#names.set(text, name);
    return name;
  }

  get size(): number {
    return this.#names.size;
  }
}
