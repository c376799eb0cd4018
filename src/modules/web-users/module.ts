/** The web users module: its operator routes and the job that sweeps stale sessions. */
import { job, type ModuleDescriptor } from '../plugins.ts';
import { webUserOperatorRoutes } from './routes.ts';
import { sweepStaleSessions } from './sessions.ts';

export const webUsersModule: ModuleDescriptor = {
  name: 'web-users',
  routes: { operator: [webUserOperatorRoutes] },
  jobs: (ctx) => [job('web-session-sweeper', 60_000, false, () => sweepStaleSessions(ctx.db, ctx.clock))],
};
