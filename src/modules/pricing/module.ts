/** The pricing module: exchange rate routes (partner and operator) and the shared schema. */
import type { ModuleDescriptor } from '../plugins.ts';
import { exchangeRateRoutes, rateOperatorRoutes } from './routes.ts';
import { ExchangeRateSchema } from './schema.ts';

export const pricingModule: ModuleDescriptor = {
  name: 'pricing',
  schemas: [ExchangeRateSchema],
  routes: { partner: [exchangeRateRoutes], operator: [rateOperatorRoutes] },
};
