/**
 * Every module's descriptor, and what the process composes from them: the schemas and routes each surface
 * serves (`app.ts`), what the modules offer one another (`runtime.ts`, into the context) and the jobs
 * they run (`workers/index.ts`). The order of `MODULES` is the order their schemas are published in,
 * their offers composed in and their jobs started in.
 */
import type { TSchema } from 'typebox';
import type { AppContext } from '../context.ts';
import type { Logger } from '../core/logger.ts';
import { Problem } from '../http/schemas.ts';
import { accountsModule } from './accounts/module.ts';
import { associatedPartiesModule } from './associated-parties/module.ts';
import { backupsModule } from './backups/module.ts';
import { bankAccountsModule } from './bank-accounts/module.ts';
import { complianceModule } from './compliance/module.ts';
import { customersModule } from './customers/module.ts';
import { documentsModule } from './documents/module.ts';
import { eventsModule } from './events/module.ts';
import { hostedVerificationModule } from './hosted-verification/module.ts';
import { limitRequestsModule } from './limit-requests/module.ts';
import { offRampModule } from './off-ramp/module.ts';
import type { ComposedOffers, ModuleOffers } from './offers.ts';
import { onRampModule } from './on-ramp/module.ts';
import { operatorsModule } from './operators/module.ts';
import { partnerFeesModule } from './partner-fees/module.ts';
import { pixModule } from './pix/module.ts';
import type { Job, ModuleDescriptor, OfferDeps, OperatorPlugin, PublicPlugin } from './plugins.ts';
import { pricingModule } from './pricing/module.ts';
import { projectsModule } from './projects/module.ts';
import { requestLogModule } from './request-log/module.ts';
import { screeningModule } from './screening/module.ts';
import { termsModule } from './terms/module.ts';
import { transactionsModule } from './transactions/module.ts';
import { usBankModule } from './us-bank/module.ts';
import { verificationReviewModule } from './verification-review/module.ts';
import { verificationsModule } from './verifications/module.ts';
import { walletsModule } from './wallets/module.ts';
import { webUsersModule } from './web-users/module.ts';
import { webhooksModule } from './webhooks/module.ts';

export const MODULES: readonly ModuleDescriptor[] = [
  pixModule,
  verificationsModule,
  customersModule,
  verificationReviewModule,
  limitRequestsModule,
  bankAccountsModule,
  documentsModule,
  hostedVerificationModule,
  webhooksModule,
  onRampModule,
  offRampModule,
  transactionsModule,
  walletsModule,
  pricingModule,
  screeningModule,
  associatedPartiesModule,
  termsModule,
  eventsModule,
  projectsModule,
  operatorsModule,
  complianceModule,
  partnerFeesModule,
  webUsersModule,
  requestLogModule,
  accountsModule,
  usBankModule,
  backupsModule,
];

/** The schemas every surface shares through `$ref` (published as OpenAPI components). */
export const sharedSchemas: TSchema[] = [Problem, ...MODULES.flatMap((module) => module.schemas ?? [])];

/**
 * The order the published documents list each surface's routes in (the API reference and the SDK generated
 * from it follow it), by route plugin: it interleaves modules (the sandbox's routes beside the flows they
 * drive). A plugin a module serves but this does not name comes after these, in module order.
 */
const PUBLISHED_ORDER = {
  partner: [
    'customerRoutes',
    'verificationRoutes',
    'limitRequestRoutes',
    'bankAccountRoutes',
    'accountRoutes',
    'documentRoutes',
    'sandboxVerificationRoutes',
    'webhookRoutes',
    'onRampRoutes',
    'offRampRoutes',
    'transactionRoutes',
    'sandboxDepositRoutes',
    'sandboxReturnRoutes',
    'sandboxExpiryRoutes',
    'balanceRoutes',
    'walletRoutes',
    'exchangeRateRoutes',
    'travelRuleRoutes',
    'associatedPartyRoutes',
    'termsLinkRoutes',
    'eventRoutes',
  ],
  open: ['pixWebhookRoutes', 'hostedVerificationRoutes', 'termsPageRoutes'],
  operator: [
    'projectOperatorRoutes',
    'rateOperatorRoutes',
    'operatorAccountRoutes',
    'complianceOperatorRoutes',
    'partnerFeeOperatorRoutes',
    'webUserOperatorRoutes',
    'screeningOperatorRoutes',
    'backupOperatorRoutes',
  ],
} as const;

/** The route plugins every module serves on a surface, in the published order. */
function surface<P extends PublicPlugin | OperatorPlugin>(
  name: keyof typeof PUBLISHED_ORDER,
  of: (module: ModuleDescriptor) => P[] | undefined,
): P[] {
  const plugins = MODULES.flatMap((module) => of(module) ?? []);
  const order: readonly string[] = PUBLISHED_ORDER[name];
  const rank = (plugin: P) => {
    const at = order.indexOf(plugin.name);
    return at === -1 ? order.length : at;
  };
  // a stable sort: plugins the order does not name keep their module order, after the named ones
  return plugins
    .map((plugin, i) => ({ plugin, i }))
    .sort((a, b) => rank(a.plugin) - rank(b.plugin) || a.i - b.i)
    .map(({ plugin }) => plugin);
}

/** Routes that need an API key of the listener's environment. */
export const partnerRoutes: PublicPlugin[] = surface('partner', (module) => module.routes?.partner);

/** Routes on the public listeners that carry their own authentication (or none): pages, provider callbacks. */
export const openPublicRoutes: PublicPlugin[] = surface('open', (module) => module.routes?.open);

/** Routes on the operator listener, behind an operator token. */
export const operatorRoutes: OperatorPlugin[] = surface('operator', (module) => module.routes?.operator);

/**
 * Every module's offers put together: the screening decisions by subject type (one owner each), the
 * handlers of a decided hold in module order, and the parts one module offers (exactly one). A module's
 * offer that calls another's reaches it through `all()`, answered once the composition is done.
 */
export function composeOffers(deps: OfferDeps): ComposedOffers {
  const composed: { value?: ComposedOffers } = {};
  const all = () => {
    if (!composed.value) throw new Error('an offer was called while the offers were being composed');
    return composed.value;
  };
  const offered = MODULES.map((module) => ({ name: module.name, offers: module.offers?.(deps, all) ?? {} }));
  composed.value = {
    screeningDecisions: oneOwnerEach(offered),
    holdDecided: offered.flatMap(({ offers }) => offers.holdDecided ?? []),
    deliveries: onlyOne(offered, 'deliveries'),
    fundsReceived: onlyOne(offered, 'fundsReceived'),
    pixIntake: onlyOne(offered, 'pixIntake'),
    bankFundsReceived: onlyOne(offered, 'bankFundsReceived'),
    bankPayoutReported: onlyOne(offered, 'bankPayoutReported'),
  };
  return composed.value;
}

function oneOwnerEach(
  offered: { name: string; offers: ModuleOffers }[],
): ComposedOffers['screeningDecisions'] {
  const entries = offered.flatMap(({ offers }) => Object.entries(offers.screeningDecisions ?? {}));
  const types = entries.map(([type]) => type);
  const twice = types.filter((type, i) => types.indexOf(type) !== i);
  if (twice.length > 0) throw new Error(`screening decisions on ${twice.join(', ')} are offered twice`);
  return Object.fromEntries(entries);
}

function onlyOne<
  K extends 'deliveries' | 'fundsReceived' | 'pixIntake' | 'bankFundsReceived' | 'bankPayoutReported',
>(offered: { name: string; offers: ModuleOffers }[], part: K): NonNullable<ModuleOffers[K]> {
  const by = offered.filter(({ offers }) => offers[part] !== undefined);
  if (by.length !== 1) {
    throw new Error(
      `${part} must be offered by one module, not ${by.map(({ name }) => name).join(', ') || 'none'}`,
    );
  }
  return by[0]!.offers[part]!;
}

/** Every module's background jobs, in module order. */
export function moduleJobs(ctx: AppContext, log: Logger): Job[] {
  return MODULES.flatMap((module) => module.jobs?.(ctx, log) ?? []);
}
