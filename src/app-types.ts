// Types shared by every plugin: the app instance with its decorations, and per-route auth settings.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { WriteQueue } from './db/write-queue.ts';
import type { FrontDoor } from './http/front-door.ts';
import type { DB } from './db/schema.ts';
import type { Permission } from './auth/permissions.ts';
import type { Principal } from './auth/tokens.ts';
import type { LedgerScope } from './auth/ledger-scope.ts';
import type { ResolvedApiKey } from './auth/api-keys.ts';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface RouteAuth {
  /** Permissions the user must hold (all of them). */
  permissions: Permission[];
  /** Whether the apiKey query parameter must be present. */
  apiKey: 'required' | 'optional';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Serve repeated GETs from the page cache (src/http/page-cache.ts). */
    cache?: boolean;
    /** Answer null properties as null even without showNullValues=true (fixed-shape answers such as {Id, Code, Name}). */
    keepNulls?: boolean;
    /** What a body that is an array is keyed by in error maps (the assign/remove writes: `Building[2]`). */
    bodyName?: string;
  }
  interface FastifyInstance {
    db: Kysely<DB>;
    database: Database;
    config: Readonly<Config>;
    now(): Date;
    /** Runs a write command atomically and durably (group commit on SQLite). */
    writes: WriteQueue;
    /** Answers repeats of page-cache hits before Fastify (armed by the page-cache step). */
    frontDoor: FrontDoor;
  }
  interface FastifyRequest {
    principal: Principal | null;
    apiKey: ResolvedApiKey | null;
    /** Ledgers this request may see: the user's grant, narrowed by the API key. */
    scope: LedgerScope;
  }
}
