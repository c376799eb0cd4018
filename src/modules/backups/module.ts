/** Backups: the operator's route a running process streams a consistent copy of its own database on. */
import type { ModuleDescriptor } from '../plugins.ts';
import { backupOperatorRoutes } from './routes.ts';

export const backupsModule: ModuleDescriptor = {
  name: 'backups',
  routes: { operator: [backupOperatorRoutes] },
};
