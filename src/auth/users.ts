// User commands: add, list, disable, change password. Disabling or a new password ends the user's tokens.
import type { Executor } from '../db/database.ts';
import { hashPassword } from './secrets.ts';
import { isPermission, type Permission } from './permissions.ts';

export class CommandError extends Error {}

export interface NewUser {
  name: string;
  password: string;
  permissions: string[];
  /** Company code ids the user may see; empty or undefined = all ledgers. */
  ledgers?: number[];
}

/** Runs `fn` in a transaction (or in the caller's, when `db` already is one): a command changes all or nothing. */
export function atomically<T>(db: Executor, fn: (trx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

function checkPassword(password: string): void {
  if (password.length < 8) throw new CommandError('password must have at least 8 characters; choose a longer one');
}

/** Refuses company code ids that do not exist (user grants and API keys). */
export async function checkLedgers(db: Executor, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.selectFrom('company_codes').select('id').where('id', 'in', ids).execute();
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length)
    throw new CommandError(
      `unknown company code id(s): ${missing.join(', ')}; give ids of existing ledgers (import or demo load them first)`,
    );
}

export async function addUser(db: Executor, user: NewUser, now = new Date()): Promise<number> {
  if (!/^[A-Za-z0-9._@-]{1,100}$/.test(user.name))
    throw new CommandError(
      `invalid user name '${user.name}'; choose 1 to 100 characters, each an ASCII letter (A-Z, a-z), a digit or one of . _ @ -`,
    );
  checkPassword(user.password);
  const bad = user.permissions.filter((p) => !isPermission(p));
  if (bad.length)
    throw new CommandError(
      `unknown permission(s): ${bad.join(', ')}; choose from the list in 'wohnapi user add --help' (names are case-sensitive)`,
    );
  const ledgers = user.ledgers ?? [];
  const passwordHash = await hashPassword(user.password);
  return atomically(db, async (db) => {
    await checkLedgers(db, ledgers);
    const exists = await db.selectFrom('users').select('id').where('name', '=', user.name).executeTakeFirst();
    if (exists)
      throw new CommandError(
        `user '${user.name}' already exists; choose another name, or set its password with 'wohnapi user passwd ${user.name}'`,
      );
    const { id } = await db
      .insertInto('users')
      .values({
        name: user.name,
        password_hash: passwordHash,
        all_ledgers: ledgers.length ? 0 : 1,
        created_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const perms = [...new Set(user.permissions)];
    if (perms.length)
      await db
        .insertInto('user_permissions')
        .values(perms.map((permission) => ({ user_id: id, permission })))
        .execute();
    if (ledgers.length)
      await db
        .insertInto('user_ledgers')
        .values(ledgers.map((c) => ({ user_id: id, company_code_id: c })))
        .execute();
    return id;
  });
}

export interface UserSummary {
  name: string;
  disabled: boolean;
  permissions: Permission[];
  ledgers: number[] | 'all';
  createdAt: string;
}

export async function listUsers(db: Executor): Promise<UserSummary[]> {
  const users = await db.selectFrom('users').selectAll().orderBy('name').execute();
  const perms = await db.selectFrom('user_permissions').selectAll().execute();
  const ledgers = await db.selectFrom('user_ledgers').selectAll().orderBy('company_code_id').execute();
  return users.map((u) => ({
    name: u.name,
    disabled: u.disabled === 1,
    permissions: perms
      .filter((p) => p.user_id === u.id)
      .map((p) => p.permission as Permission)
      .sort(),
    ledgers: u.all_ledgers === 1 ? 'all' : ledgers.filter((l) => l.user_id === u.id).map((l) => l.company_code_id),
    createdAt: u.created_at,
  }));
}

async function userId(db: Executor, name: string): Promise<number> {
  const row = await db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirst();
  if (!row) throw new CommandError(`no user '${name}'; see the users with 'wohnapi user list'`);
  return row.id;
}

export function disableUser(db: Executor, name: string): Promise<void> {
  return atomically(db, async (db) => {
    const id = await userId(db, name);
    await db.updateTable('users').set({ disabled: 1 }).where('id', '=', id).execute();
    await db.deleteFrom('oauth_tokens').where('user_id', '=', id).execute();
  });
}

/** Ends a disable: the user may log in again (its old tokens stay ended). */
export function enableUser(db: Executor, name: string): Promise<void> {
  return atomically(db, async (db) => {
    const id = await userId(db, name);
    await db.updateTable('users').set({ disabled: 0 }).where('id', '=', id).execute();
  });
}

export async function setPassword(db: Executor, name: string, password: string): Promise<void> {
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  await atomically(db, async (db) => {
    const id = await userId(db, name);
    await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    await db.deleteFrom('oauth_tokens').where('user_id', '=', id).execute();
  });
}

/** The stored credentials of a user name for the token endpoint (undefined for an unknown name). */
export function findLoginUser(db: Executor, name: string) {
  return db.selectFrom('users').select(['id', 'password_hash', 'disabled']).where('name', '=', name).executeTakeFirst();
}
