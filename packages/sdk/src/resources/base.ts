import type { PageBody } from '../pagination.js';
import { paginate } from '../pagination.js';
import type { Query, RequestOptions, Transport } from '../transport.js';

/** Path segments are escaped, so an id can never reach another route. */
export const segment = (value: string) => encodeURIComponent(value);

export abstract class Resource {
  protected readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  protected getJson<T>(path: string, query?: object, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>({ method: 'GET', path, query: query as Query | undefined, options });
  }

  protected postJson<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>({ method: 'POST', path, body, options });
  }

  protected postForm<T>(path: string, form: FormData, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>({ method: 'POST', path, body: form, options });
  }

  protected deleteResource(path: string, options?: RequestOptions): Promise<void> {
    return this.transport.request<void>({ method: 'DELETE', path, options });
  }

  protected listPages<T>(path: string, query: object | undefined, options?: RequestOptions) {
    return paginate<T>((pageQuery) => this.getJson<PageBody<T>>(path, pageQuery, options), {
      ...(query as Record<string, unknown> | undefined),
    });
  }
}
