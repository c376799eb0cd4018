/** The verifications module: its shared schema and the job that applies the sandbox's outcomes. */
import { job, type ModuleDescriptor } from '../plugins.ts';
import { applyDueSandboxOutcomes } from './sandbox.ts';
import { VerificationSchema } from './schema.ts';

export const verificationsModule: ModuleDescriptor = {
  name: 'verifications',
  schemas: [VerificationSchema],
  jobs: (ctx) => [job('sandbox-verifications', 200, true, () => applyDueSandboxOutcomes(ctx.db, ctx.clock))],
};
