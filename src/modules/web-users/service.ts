/**
 * The people of the web interfaces: invitations (single use, expiring), accepting one with a password,
 * signing in (password, then an optional TOTP code), changing a password or a role, removing a user.
 * A password change and a removal end every session of that user. Every change is audited.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Database, Transaction } from '../../db/types.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import { type Actor, recordAudit } from '../operators/audit.ts';
import { findProject } from '../projects/service.ts';
import {
  checkPassword,
  hashPassword,
  newTotpSecret,
  openTotpSecret,
  passwordProblem,
  sealTotpSecret,
  totpStep,
} from './credentials.ts';
import * as repo from './repo.ts';
import { accountSubject, createSignInThrottle, openSession, type Session } from './sessions.ts';

export const DASHBOARD_ROLES = ['admin', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];
export const INVITE_TTL_MS = 7 * 24 * 3_600_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type WebUserView = {
  id: string;
  email: string;
  role: repo.WebRole;
  status: 'invited' | 'active';
  totpEnabled: boolean;
  createdAt: string;
};

export const presentWebUser = (row: repo.WebUserRow): WebUserView => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: row.password_hash ? 'active' : 'invited',
  totpEnabled: row.totp_secret !== null,
  createdAt: row.created_at.toISOString(),
});

/** How the audit log names a signed-in person. */
export const webActor = (user: repo.WebUserRow): Actor =>
  user.surface === 'console' && user.operator_id
    ? { id: user.operator_id, name: user.email }
    : { id: null, name: `dashboard:${user.id}:${user.email}` };

export type SignInResult =
  | { kind: 'signed-in'; token: string; user: repo.WebUserRow }
  | { kind: 'second-factor'; token: string }
  | { kind: 'refused' }
  | { kind: 'throttled' };

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export function createWebUserService(deps: {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'dashboardUrl' | 'operatorUrl'>;
  encryptionKey: Buffer;
}) {
  const { db, clock, config, encryptionKey } = deps;
  const throttle = createSignInThrottle({ db, clock });

  function inviteUrl(surface: repo.Surface, token: string): string {
    return surface === 'dashboard'
      ? new URL(`/invite/${token}`, config.dashboardUrl).href
      : new URL(`/console/invite/${token}`, config.operatorUrl).href;
  }

  async function issueInvite(tx: Parameters<typeof repo.insertInvite>[0], userId: string, at: Date) {
    const token = randomBase62(43);
    await repo.closeInvites(tx, userId, at);
    await repo.insertInvite(tx, {
      token_hash: sha256Hex(token),
      user_id: userId,
      created_at: at,
      expires_at: new Date(at.getTime() + INVITE_TTL_MS),
    });
    return token;
  }

  /**
   * Invites a person: a new user without a password and a link that sets it. Inviting again an address
   * that has not accepted yet replaces the earlier link.
   */
  type InviteTarget =
    | { surface: 'dashboard'; projectId: string; role: DashboardRole }
    | { surface: 'console'; operatorId: string };

  /** The invitation itself, inside the caller's transaction (first run creates one with its project). */
  async function inviteIn(
    tx: Transaction,
    actor: Actor,
    target: InviteTarget,
    rawEmail: string,
  ): Promise<WebUserView & { inviteUrl: string }> {
    const email = rawEmail.trim();
    if (!EMAIL.test(email) || email.length > 254)
      throw invalidField('/body/email', 'is not an e-mail address');
    const at = clock();
    if (target.surface === 'dashboard' && !(await findProject(tx, target.projectId))) {
      throw notFound('Project');
    }
    const existing = await repo.findUserByEmail(tx, target.surface, email);
    const sameSeat =
      existing &&
      !existing.password_hash &&
      (target.surface !== 'dashboard' || existing.project_id === target.projectId);
    if (existing && !sameSeat)
      throw new AppError('conflict', 'A user with this e-mail address already exists');
    const row: repo.WebUserRow = existing ?? {
      id: newId(),
      surface: target.surface,
      project_id: target.surface === 'dashboard' ? target.projectId : null,
      operator_id: target.surface === 'console' ? target.operatorId : null,
      email,
      role: target.surface === 'dashboard' ? target.role : 'operator',
      password_hash: null,
      totp_secret: null,
      created_at: at,
      updated_at: at,
      removed_at: null,
    };
    if (existing) {
      if (target.surface === 'dashboard') row.role = target.role;
      await repo.updateUser(tx, row.id, { role: row.role }, at);
    } else await repo.insertUser(tx, row);
    const token = await issueInvite(tx, row.id, at);
    await recordAudit(tx, {
      actor,
      action: 'web_user.invited',
      resourceType: 'web_user',
      resourceId: row.id,
      after: { surface: row.surface, projectId: row.project_id, email, role: row.role },
      at,
    });
    return { ...presentWebUser(row), inviteUrl: inviteUrl(row.surface, token) };
  }

  /**
   * Invites a person: a new user without a password and a link that sets it. Inviting again an address
   * that has not accepted yet replaces the earlier link.
   */
  async function invite(actor: Actor, target: InviteTarget, rawEmail: string) {
    try {
      return await db.transaction((tx) => inviteIn(tx, actor, target, rawEmail));
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('conflict', 'A user with this e-mail address already exists');
      throw error;
    }
  }

  /** The user an open invitation is for, or null when the link is unknown, used or expired. */
  async function invitation(surface: repo.Surface, token: string): Promise<repo.WebUserRow | null> {
    if (!/^[0-9A-Za-z]{43}$/.test(token)) return null;
    const open = await repo.findOpenInvite(db, sha256Hex(token), clock());
    const user = open ? await repo.findActiveUser(db, open.user_id) : undefined;
    return user && user.surface === surface ? user : null;
  }

  /** Sets the password of an invited user, uses up the link, ends other sessions and signs the user in. */
  async function acceptInvite(surface: repo.Surface, token: string, password: string) {
    const user = await invitation(surface, token);
    if (!user) throw notFound('Invitation');
    const problem = passwordProblem(password, user.email);
    if (problem) throw invalidField('/body/password', problem);
    const passwordHash = await hashPassword(password);
    return db.transaction(async (tx) => {
      const at = clock();
      const open = await repo.lockOpenInvite(tx, sha256Hex(token), at);
      if (!open || open.user_id !== user.id) throw notFound('Invitation');
      await repo.useInvite(tx, sha256Hex(token), at);
      await repo.updateUser(tx, user.id, { password_hash: passwordHash }, at);
      await repo.deleteUserSessions(tx, user.id);
      await recordAudit(tx, {
        actor: webActor(user),
        action: 'web_user.invite_accepted',
        resourceType: 'web_user',
        resourceId: user.id,
        at,
      });
      return { user, ...(await openSession(tx, clock, user.id, false)) };
    });
  }

  async function signIn(
    surface: repo.Surface,
    email: string,
    password: string,
    address: string,
  ): Promise<SignInResult> {
    const attempt = await throttle.attempt(accountSubject(surface, email), address);
    if (!attempt) return { kind: 'throttled' };
    const user = await repo.findUserByEmail(db, surface, email.trim());
    if (!(await checkPassword(user?.password_hash ?? null, password)) || !user) return { kind: 'refused' };
    if (user.totp_secret) {
      await throttle.passed(attempt);
      const { token } = await openSession(db, clock, user.id, true);
      return { kind: 'second-factor', token };
    }
    await throttle.succeeded(attempt);
    const { token } = await openSession(db, clock, user.id, false);
    return { kind: 'signed-in', token, user };
  }

  /**
   * The second step of a sign-in: a TOTP code turns the pending session into a full one. A code is
   * accepted once: its time step must be later than that of the last code the user signed in with.
   */
  async function completeSecondFactor(
    pending: Session,
    code: string,
    address: string,
  ): Promise<SignInResult> {
    const user = pending.user;
    if (!pending.mfaPending || !user.totp_secret) return { kind: 'refused' };
    const attempt = await throttle.attempt(accountSubject(user.surface, user.email), address);
    if (!attempt) return { kind: 'throttled' };
    const secret = openTotpSecret(encryptionKey, user.totp_secret, user.id);
    const step = await totpStep(secret, code.trim());
    if (step === null) return { kind: 'refused' };
    const result = await db.transaction(async (tx): Promise<SignInResult> => {
      if (!(await repo.useTotpStep(tx, user.id, step))) return { kind: 'refused' };
      await repo.deleteSession(tx, pending.tokenHash);
      const { token } = await openSession(tx, clock, user.id, false);
      return { kind: 'signed-in', token, user };
    });
    if (result.kind === 'signed-in') await throttle.succeeded(attempt);
    return result;
  }

  /** Changes a password after checking the current one; every session ends, a new one is opened. */
  async function changePassword(user: repo.WebUserRow, current: string, next: string) {
    if (!(await checkPassword(user.password_hash, current))) {
      throw invalidField('/body/currentPassword', 'is not your current password');
    }
    const problem = passwordProblem(next, user.email);
    if (problem) throw invalidField('/body/newPassword', problem);
    const passwordHash = await hashPassword(next);
    return db.transaction(async (tx) => {
      const at = clock();
      await repo.updateUser(tx, user.id, { password_hash: passwordHash }, at);
      await repo.deleteUserSessions(tx, user.id);
      await recordAudit(tx, {
        actor: webActor(user),
        action: 'web_user.password_changed',
        resourceType: 'web_user',
        resourceId: user.id,
        at,
      });
      return openSession(tx, clock, user.id, false);
    });
  }

  /** A new secret for the user to add to an authenticator; enabled only once a code from it matches. */
  const proposeTotp = (): string => newTotpSecret();

  async function enableTotp(user: repo.WebUserRow, secret: string, code: string): Promise<void> {
    if (!/^[A-Z2-7]{16,64}$/.test(secret)) throw invalidField('/body/secret', 'is not a TOTP secret');
    const step = await totpStep(secret, code.trim());
    if (step === null) throw invalidField('/body/code', 'does not match');
    await db.transaction(async (tx) => {
      const at = clock();
      await repo.updateUser(tx, user.id, { totp_secret: sealTotpSecret(encryptionKey, secret, user.id) }, at);
      // the code that enabled the second factor does not sign in as well
      await repo.useTotpStep(tx, user.id, step);
      await recordAudit(tx, {
        actor: webActor(user),
        action: 'web_user.totp_enabled',
        resourceType: 'web_user',
        resourceId: user.id,
        at,
      });
    });
  }

  async function list(projectId: string): Promise<WebUserView[]> {
    return (await repo.listProjectUsers(db, projectId)).map(presentWebUser);
  }

  /** A user of the project, locked; another project's user is not found. */
  async function lockMember(tx: Parameters<typeof repo.lockActiveUser>[0], projectId: string, id: string) {
    const row = await repo.lockActiveUser(tx, id);
    if (row?.surface !== 'dashboard' || row.project_id !== projectId) throw notFound('User');
    return row;
  }

  async function keepAnAdmin(tx: Parameters<typeof repo.countAdmins>[0], row: repo.WebUserRow) {
    if (row.role === 'admin' && row.password_hash && (await repo.countAdmins(tx, row.project_id!)) <= 1) {
      throw new AppError('conflict', 'A project keeps at least one admin');
    }
  }

  async function changeRole(actor: Actor, projectId: string, id: string, role: DashboardRole) {
    await db.transaction(async (tx) => {
      const row = await lockMember(tx, projectId, id);
      if (row.role === role) return;
      await keepAnAdmin(tx, row);
      const at = clock();
      await repo.updateUser(tx, id, { role }, at);
      await recordAudit(tx, {
        actor,
        action: 'web_user.role_changed',
        resourceType: 'web_user',
        resourceId: id,
        before: { role: row.role },
        after: { role },
        at,
      });
    });
  }

  /** Removes a user: their sessions end and their invitation stops working at once. */
  async function remove(actor: Actor, projectId: string, id: string) {
    await db.transaction(async (tx) => {
      const row = await lockMember(tx, projectId, id);
      await keepAnAdmin(tx, row);
      const at = clock();
      await repo.updateUser(tx, id, { removed_at: at }, at);
      await repo.deleteUserSessions(tx, id);
      await repo.closeInvites(tx, id, at);
      await recordAudit(tx, {
        actor,
        action: 'web_user.removed',
        resourceType: 'web_user',
        resourceId: id,
        before: { email: row.email, role: row.role },
        at,
      });
    });
  }

  return {
    invite,
    inviteIn,
    invitation,
    acceptInvite,
    signIn,
    completeSecondFactor,
    changePassword,
    proposeTotp,
    enableTotp,
    list,
    changeRole,
    remove,
  };
}

export type WebUserService = ReturnType<typeof createWebUserService>;
