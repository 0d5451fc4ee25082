// @wohnapi/client: the typed client of the wohnapi interface. The types (schema.ts) are generated from the server's
// OpenAPI document (`npm run client:generate`); openapi-fetch makes the calls. This hand-written layer adds what
// generation cannot: login with the password grant and a refresh on 401, the apiKey on every call, and paging.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';
/** The record types, e.g. `Schemas['AllocationGroupBase']`. */
export type Schemas = components['schemas'];

export interface WohnapiOptions {
  /** e.g. http://localhost:8080 */
  baseUrl: string;
  /** For the password grant; without them, call `login()` yourself or set `tokens`. */
  username?: string;
  password?: string;
  /** The API key of the client application, sent as the apiKey query parameter on every call. */
  apiKey?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'bearer';
}

/** A token request the server refused (OAuth error code and description). */
export class LoginError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

/** Paths whose GET answers a page (an array) and takes limit and offset, and no path parameter to fill. */
export type ListPath = {
  [P in keyof paths]: P extends `${string}{${string}}${string}`
    ? never
    : paths[P] extends {
          get: {
            parameters: { query?: { limit?: number; offset?: number } };
            responses: { 200: { content: { 'application/json': unknown[] } } };
          };
        }
      ? P
      : never;
}[keyof paths];

export type ItemOf<P extends ListPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': (infer T)[] } } } };
}
  ? T
  : never;

export type QueryOf<P extends ListPath> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? Omit<NonNullable<Q>, 'limit' | 'offset'>
  : never;

export class WohnapiClient {
  /** The openapi-fetch client: `api.GET('/service/v1.2/...', { params: { query } })`, typed by path. */
  readonly api: Client<paths>;
  tokens: Tokens | undefined;
  private readonly send: typeof globalThis.fetch;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: WohnapiOptions) {
    this.send = options.fetch ?? globalThis.fetch;
    this.api = createClient<paths>({ baseUrl: options.baseUrl, fetch: (request: Request) => this.call(request) });
  }

  /** The password grant (with the options' user and password unless given). */
  async login(username = this.options.username, password = this.options.password): Promise<Tokens> {
    if (!username || !password) throw new Error('login needs a username and a password (options or arguments)');
    this.tokens = await this.token({ grant_type: 'password', username, password });
    return this.tokens;
  }

  /** The refresh_token grant; falls back to a new login when the refresh token is no longer accepted. */
  async refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        if (this.tokens) {
          try {
            this.tokens = await this.token({ grant_type: 'refresh_token', refresh_token: this.tokens.refresh_token });
            return;
          } catch (err) {
            if (!(err instanceof LoginError) || !this.options.password) throw err;
          }
        }
        await this.login();
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Every record of a list endpoint, fetching page after page (limit = pageSize) as the caller iterates. */
  async *paginate<P extends ListPath>(
    path: P,
    query: QueryOf<P> = {} as QueryOf<P>,
    pageSize = 100,
  ): AsyncGenerator<ItemOf<P>, void, undefined> {
    if (path.includes('{')) throw new Error(`paginate: ${path} has a path parameter; use api.GET with params.path`);
    for (let offset = 0; ; offset += pageSize) {
      const url = new URL(path, this.options.baseUrl);
      for (const [key, value] of Object.entries(query)) {
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
          url.searchParams.set(key, String(value));
      }
      url.searchParams.set('limit', String(pageSize));
      url.searchParams.set('offset', String(offset));
      const response = await this.call(new Request(url));
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      const page = (await response.json()) as ItemOf<P>[];
      yield* page;
      if (page.length < pageSize) return;
    }
  }

  /** Sends a request with the bearer token and the apiKey; on 401 refreshes once and sends it again. */
  private async call(request: Request): Promise<Response> {
    if (!this.tokens && this.options.password) await this.login();
    const first = await this.send(this.authorized(request.clone()));
    // a 401 is answered by a refresh (tokens given without a password too), else by a new login
    if (first.status !== 401 || !(this.options.password || this.tokens?.refresh_token)) return first;
    try {
      await this.refresh();
    } catch (err) {
      if (err instanceof LoginError && !this.options.password) return first; // the refresh token is spent too
      throw err;
    }
    return this.send(this.authorized(request));
  }

  private authorized(request: Request): Request {
    const url = new URL(request.url);
    if (this.options.apiKey && !url.searchParams.has('apiKey')) url.searchParams.set('apiKey', this.options.apiKey);
    const headers = new Headers(request.headers);
    if (this.tokens) headers.set('authorization', `Bearer ${this.tokens.access_token}`);
    return new Request(url, { method: request.method, headers, body: request.body, duplex: 'half' } as RequestInit);
  }

  private async token(form: Record<string, string>): Promise<Tokens> {
    const response = await this.send(new URL('/oauth2/token', this.options.baseUrl), {
      method: 'POST',
      body: new URLSearchParams(form),
    });
    const body = (await response.json()) as Tokens | { error: string; error_description?: string };
    if (!response.ok || 'error' in body) {
      const e = body as { error?: string; error_description?: string };
      throw new LoginError(response.status, e.error ?? 'error', e.error_description ?? `status ${response.status}`);
    }
    return body;
  }
}

/** A client for one server: `createWohnapiClient({ baseUrl, username, password, apiKey })`. */
export function createWohnapiClient(options: WohnapiOptions): WohnapiClient {
  return new WohnapiClient(options);
}
