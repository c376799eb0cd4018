/**
 * The names of the published operations and the tags that group them. One map keyed by
 * "METHOD /path" (OpenAPI path syntax): a route's own `operationId` wins, otherwise it is named here.
 * Operations of the contract that later land on their routes are named here already.
 */
export const OPERATION_IDS: Record<string, string> = {
  'POST /customers': 'createCustomer',
  'GET /customers': 'listCustomers',
  'GET /customers/{id}': 'retrieveCustomer',
  'GET /customers/{id}/verifications/{verificationId}': 'retrieveVerification',
  'POST /customers/{id}/limit-requests': 'createLimitRequest',
  'GET /customers/{id}/limit-requests': 'listLimitRequests',
  'GET /customers/{id}/limit-requests/{limitRequestId}': 'retrieveLimitRequest',
  'POST /customers/{id}/documents': 'uploadDocument',
  'GET /customers/{id}/documents': 'listDocuments',
  'GET /customers/{id}/documents/{documentId}': 'retrieveDocument',
  'GET /customers/{id}/documents/{documentId}/content': 'downloadDocumentContent',
  'GET /customers/{id}/balances': 'listBalances',
  'GET /customers/{id}/wallets': 'listWallets',
  'POST /bank-accounts': 'createBankAccount',
  'GET /bank-accounts': 'listBankAccounts',
  'GET /bank-accounts/{id}': 'retrieveBankAccount',
  'DELETE /bank-accounts/{id}': 'deleteBankAccount',
  'POST /exchange-rates': 'createExchangeRate',
  'GET /exchange-rates/reference': 'getExchangeRateReference',
  'POST /transactions/on-ramp': 'createOnRamp',
  'POST /transactions/off-ramp': 'createOffRamp',
  'POST /transactions/transfer': 'createTransfer',
  'POST /transactions/{id}/refund': 'refundTransaction',
  'GET /transactions': 'listTransactions',
  'GET /transactions/{id}': 'retrieveTransaction',
  'POST /webhook-endpoints': 'createWebhookEndpoint',
  'GET /webhook-endpoints': 'listWebhookEndpoints',
  'GET /webhook-endpoints/{id}': 'retrieveWebhookEndpoint',
  'DELETE /webhook-endpoints/{id}': 'deleteWebhookEndpoint',
  'GET /webhook-endpoints/{id}/deliveries': 'listWebhookDeliveries',
  'POST /webhook-endpoints/{id}/deliveries/{deliveryId}/retry': 'retryWebhookDelivery',
  'POST /webhook-endpoints/{id}/rotate-secret': 'rotateWebhookEndpointSecret',
  'POST /sandbox/customers/{id}/verification': 'simulateVerification',
  'POST /sandbox/transactions/{id}/deposit': 'simulateDeposit',
  'POST /sandbox/transactions/{id}/return': 'simulateReturn',
  'POST /sandbox/wallets/{address}/deposit': 'simulateWalletDeposit',
  'POST /customers/{id}/associated-parties': 'createAssociatedParty',
  'GET /customers/{id}/associated-parties': 'listAssociatedParties',
  'GET /customers/{id}/associated-parties/{partyId}': 'retrieveAssociatedParty',
  'DELETE /customers/{id}/associated-parties/{partyId}': 'deleteAssociatedParty',
  'POST /customers/{id}/tos': 'createTermsOfServiceLink',
  'POST /customers/{id}/verifications/{verificationId}/submit': 'submitVerification',
  'POST /sandbox/transactions/{id}/expire': 'simulateExpiry',
  'POST /sandbox/exchange-rates/{id}/expire': 'simulateExchangeRateExpiry',
  'GET /events': 'listEvents',
  'GET /events/{id}': 'retrieveEvent',
  'GET /healthz': 'checkLiveness',
  'GET /readyz': 'checkReadiness',
};

/** Every tag a published operation may carry, in the order the reference shows them. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  customers: 'Individuals and businesses onboarded by a partner, with their limits and balances.',
  verifications: 'The identity verification (KYC/KYB) of a customer and its review outcome.',
  documents: 'Identity and proof documents uploaded for a verification.',
  'associated parties':
    'The owners, shareholders and representatives of a business customer, each individual verified on its own.',
  'limit-requests': "Requests to raise a customer's transaction limits, decided by compliance review.",
  'bank-accounts':
    'Bank accounts of customers, the destinations of money out: PIX accounts (BRL) and US accounts paid over ACH or wire (USD).',
  accounts:
    "Customers' accounts in US dollars: a US account number (ACH and wire) whose deposits convert to a stablecoin.",
  'exchange-rates': 'Floating and locked quotes between BRL and stablecoins.',
  transactions: 'Money movements: on-ramps (PIX in, stablecoin out), off-ramps, transfers and refunds.',
  wallets: 'The blockchain wallets of a customer and their balances.',
  webhooks: 'Endpoints that receive signed events, and the record of every delivery.',
  sandbox:
    'Simulations available only with a sandbox key: verification outcomes, deposits, returns, and expiries now.',
  events:
    'Every event of the environment, newest first, with the bodies webhooks carry: to recover missed ones.',
  health: 'Liveness and readiness of the service, for load balancers; no API key.',
};

export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
