/** The screening module: its operator routes, the shared schema, and the job that screens. */
import { job, type ModuleDescriptor } from '../plugins.ts';
import { screeningOperatorRoutes } from './routes.ts';
import { runScreening } from './runs.ts';
import { CustomerScreeningSchema } from './schema.ts';

export const screeningModule: ModuleDescriptor = {
  name: 'screening',
  schemas: [CustomerScreeningSchema],
  routes: { operator: [screeningOperatorRoutes] },
  jobs: (ctx, log) => [job('screening-runs', 1_000, true, () => runScreening({ ...ctx, log }))],
};
