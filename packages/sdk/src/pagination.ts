/**
 * A page of a list, also async-iterable over every item of every page from this one on, fetching the
 * next page only when the previous one is used up. `list()` returns a PagePromise: await it for the first
 * page, or iterate it directly.
 */
export type Pagination = {
  size: number;
  total: number;
  hasNextPage: boolean;
  page: number;
  nextCursor: string | null;
};

export type PageBody<T> = { data: T[]; pagination: Pagination };

export class Page<T> implements AsyncIterable<T> {
  readonly data: T[];
  readonly pagination: Pagination;
  readonly #fetchNext: (cursor: string) => Promise<Page<T>>;

  constructor(body: PageBody<T>, fetchNext: (cursor: string) => Promise<Page<T>>) {
    this.data = body.data;
    this.pagination = body.pagination;
    this.#fetchNext = fetchNext;
  }

  hasNextPage(): boolean {
    return this.pagination.hasNextPage && this.pagination.nextCursor !== null;
  }

  /** The following page, or null on the last one. */
  async nextPage(): Promise<Page<T> | null> {
    const cursor = this.pagination.nextCursor;
    return this.pagination.hasNextPage && cursor !== null ? this.#fetchNext(cursor) : null;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page: Page<T> | null = this;
    while (page) {
      yield* page.data;
      page = await page.nextPage();
    }
  }
}

export class PagePromise<T> implements Promise<Page<T>>, AsyncIterable<T> {
  readonly [Symbol.toStringTag] = 'PagePromise';
  readonly #page: Promise<Page<T>>;

  constructor(page: Promise<Page<T>>) {
    this.#page = page;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaited for its first page, by design
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#page.then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#page.catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#page.finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.#page;
  }
}

/**
 * Fetches a list with `query`, and its following pages with the same query and the cursor given. A list
 * asked for without a page number walks by keyset (`startingAfter`, empty at first), which stays stable
 * while items are created: it never repeats or skips an item that existed when it began. A list asked
 * for by `page` (or `cursor`) follows page numbers from there.
 */
export function paginate<T>(
  fetchPage: (query: Record<string, unknown>) => Promise<PageBody<T>>,
  query: Record<string, unknown>,
): PagePromise<T> {
  const byNumber = query.page !== undefined || query.cursor !== undefined;
  const first = byNumber || query.startingAfter !== undefined ? query : { ...query, startingAfter: '' };
  const { page: _page, cursor: _cursor, startingAfter: _after, ...rest } = first;
  const load = async (pageQuery: Record<string, unknown>): Promise<Page<T>> =>
    new Page(await fetchPage(pageQuery), (cursor) =>
      load(byNumber ? { ...rest, cursor } : { ...rest, startingAfter: cursor }),
    );
  return new PagePromise(load(first));
}
