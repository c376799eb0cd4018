import type { Clock } from '../../core/clock.ts';
import { invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database, Executor, Transaction } from '../../db/types.ts';
import { generateApiKey } from '../../lib/api-key.ts';
import type { Environment } from '../../lib/environment.ts';
import { insertOperatorAccount } from '../operators/accounts.ts';
import { type Actor, recordAudit } from '../operators/audit.ts';
import type { ApiKeyCache } from './key-cache.ts';
import type { ProjectRow } from './repo.ts';
import * as repo from './repo.ts';

export type Project = { id: string; name: string; createdAt: string };
export type IssuedApiKey = {
  id: string;
  key: string;
  prefix: string;
  environment: Environment;
  name: string | null;
  createdAt: string;
};

export function createProjectService(deps: {
  db: Database;
  clock: Clock;
  keys: Pick<ApiKeyCache, 'invalidate'>;
}) {
  const { db, clock, keys } = deps;

  async function createProject(actor: Actor, name: string): Promise<Project> {
    const row = { id: newId(), name, created_at: clock() };
    await db.transaction(async (tx) => {
      await repo.insertProject(tx, row);
      await recordAudit(tx, {
        actor,
        action: 'project.created',
        resourceType: 'project',
        resourceId: row.id,
        after: { name },
        at: row.created_at,
      });
    });
    return { id: row.id, name, createdAt: row.created_at.toISOString() };
  }

  async function issueApiKey(
    actor: Actor,
    projectId: string,
    environment: Environment,
    name: string | null,
  ): Promise<IssuedApiKey> {
    const generated = generateApiKey(environment);
    const row = {
      id: newId(),
      project_id: projectId,
      environment,
      name,
      prefix: generated.prefix,
      created_at: clock(),
    };
    await db.transaction(async (tx) => {
      if (!(await repo.findProject(tx, projectId))) throw notFound('Project');
      await repo.insertApiKey(tx, { ...row, key_hash: generated.hash, revoked_at: null });
      await recordAudit(tx, {
        actor,
        action: 'api_key.issued',
        resourceType: 'api_key',
        resourceId: row.id,
        after: { projectId, environment, name, prefix: row.prefix },
        at: row.created_at,
      });
    });
    return {
      id: row.id,
      key: generated.key,
      prefix: row.prefix,
      environment,
      name,
      createdAt: row.created_at.toISOString(),
    };
  }

  /** Revokes a key; with `scope`, only a key of that project and environment (another answers 404). */
  async function revokeApiKey(
    actor: Actor,
    id: string,
    scope?: { projectId: string; environment: Environment },
  ): Promise<void> {
    const hash = await db.transaction(async (tx) => {
      const key = await repo.lockApiKey(tx, id);
      if (!key || key.revoked_at) throw notFound('API key');
      if (scope && (key.project_id !== scope.projectId || key.environment !== scope.environment)) {
        throw notFound('API key');
      }
      const at = clock();
      await repo.revokeApiKey(tx, id, at);
      await recordAudit(tx, {
        actor,
        action: 'api_key.revoked',
        resourceType: 'api_key',
        resourceId: id,
        before: { revokedAt: null },
        after: { revokedAt: at.toISOString() },
        at,
      });
      return key.key_hash;
    });
    keys.invalidate(hash);
  }

  /**
   * On a new database: a "Default" project with one sandbox key and, unless a bootstrap token is
   * configured, an operator token. Returns the secrets to show once, or null when already set up.
   *
   * `show` is given the secrets inside the transaction that creates them, before its COMMIT: they are
   * shown before they exist, never the other way round. A process killed after showing them and before
   * the COMMIT leaves nothing (the next start sets up afresh and shows new ones); one killed after the
   * COMMIT has shown them already. A failure to show them rolls the set-up back.
   */
  async function firstRun<T = undefined>(
    withOperatorToken: boolean,
    alsoInProject?: (tx: Transaction, projectId: string) => Promise<T>,
    show?: (setup: FirstRunSecrets<T>) => Promise<void>,
  ) {
    return db.transaction(async (tx) => {
      await repo.lockFirstRun(tx);
      if ((await repo.countProjects(tx)) > 0) return null;
      const at = clock();
      const actor: Actor = { id: null, name: 'first-run' };
      const project = { id: newId(), name: 'Default', created_at: at };
      await repo.insertProject(tx, project);
      const key = generateApiKey('sandbox');
      await repo.insertApiKey(tx, {
        id: newId(),
        project_id: project.id,
        environment: 'sandbox',
        name: 'first-run',
        prefix: key.prefix,
        key_hash: key.hash,
        created_at: at,
        revoked_at: null,
      });
      await recordAudit(tx, {
        actor,
        action: 'project.created',
        resourceType: 'project',
        resourceId: project.id,
        after: { name: 'Default' },
        at,
      });
      let operatorToken: string | null = null;
      if (withOperatorToken) {
        operatorToken = await insertOperatorAccount(tx, { id: newId(), name: 'first-run', created_at: at });
      }
      const extra = alsoInProject ? await alsoInProject(tx, project.id) : undefined;
      const setup: FirstRunSecrets<T> = { projectId: project.id, sandboxKey: key.key, operatorToken, extra };
      if (show) await show(setup);
      return setup;
    });
  }

  async function listApiKeys(projectId: string, environment: Environment) {
    const rows = await repo.listApiKeys(db, projectId, environment);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      environment: row.environment,
      createdAt: row.created_at.toISOString(),
      revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
    }));
  }

  async function listProjects(limit: number, offset: number): Promise<Project[]> {
    const rows = await repo.listProjects(db, limit, offset);
    return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at.toISOString() }));
  }

  /** One page of every project, newest first, as every list of the APIs answers. */
  async function pageProjects(request: PageRequest): Promise<PageResult<Project>> {
    const [data, total] = await Promise.all([
      listProjects(request.limit, request.offset),
      repo.countProjects(db),
    ]);
    return pageResult(request, data, total);
  }

  async function getProject(id: string): Promise<Project> {
    const row = await repo.findProject(db, id);
    if (!row) throw notFound('Project');
    return { id: row.id, name: row.name, createdAt: row.created_at.toISOString() };
  }

  /** The name the project's customers see on the hosted pages; null when unset. */
  async function displayName(projectId: string): Promise<string | null> {
    const name = await repo.findDisplayName(db, projectId);
    if (name === undefined) throw notFound('Project');
    return name;
  }

  /**
   * Sets (or, with an empty value, clears) the name the project's customers see on the hosted pages:
   * trimmed, at most 80 characters, no control characters. Audited.
   */
  async function setDisplayName(actor: Actor, projectId: string, raw: string): Promise<string | null> {
    const value = raw.trim().replace(/\s+/g, ' ');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (value.length > 80 || /[\u0000-\u001f\u007f]/.test(value)) {
      throw invalidField('/body/displayName', 'must be at most 80 characters of text');
    }
    const next = value === '' ? null : value;
    await db.transaction(async (tx) => {
      const before = await repo.findDisplayName(tx, projectId);
      if (before === undefined) throw notFound('Project');
      await repo.setDisplayName(tx, projectId, next);
      await recordAudit(tx, {
        actor,
        action: 'project.display_name_set',
        resourceType: 'project',
        resourceId: projectId,
        before: { displayName: before },
        after: { displayName: next },
        at: clock(),
      });
    });
    return next;
  }

  return {
    createProject,
    getProject,
    listProjects,
    pageProjects,
    issueApiKey,
    revokeApiKey,
    listApiKeys,
    firstRun,
    displayName,
    setDisplayName,
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;

/** What a first run creates and shows once. */
export type FirstRunSecrets<T> = {
  projectId: string;
  sandboxKey: string;
  operatorToken: string | null;
  extra: T | undefined;
};

export function findProject(db: Executor, id: string): Promise<ProjectRow | undefined> {
  return repo.findProject(db, id);
}
