/** The request log module: the job that prunes it past its retention. */
import { job, type ModuleDescriptor } from '../plugins.ts';
import { pruneRequestLog } from './service.ts';

export const requestLogModule: ModuleDescriptor = {
  name: 'request-log',
  jobs: (ctx) => [
    job('request-log-retention', 60_000, false, () =>
      pruneRequestLog(ctx.db, ctx.clock, ctx.config.requestLog.retentionMs),
    ),
  ],
};
