/** The client: one object per resource over one transport; the key chooses sandbox or production. */
import { Accounts } from './resources/accounts.js';
import { Customers, LimitRequests, Verifications, Wallets } from './resources/customers.js';
import { Documents } from './resources/documents.js';
import { CustomerBalances, Events } from './resources/events.js';
import { BankAccounts, ExchangeRates, Transactions } from './resources/money.js';
import { Sandbox } from './resources/sandbox.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';
import { type ClientOptions, Transport } from './transport.js';
import { Webhooks } from './webhooks.js';

export class Ponte {
  readonly customers: Customers;
  readonly verifications: Verifications;
  readonly limitRequests: LimitRequests;
  readonly bankAccounts: BankAccounts;
  /** Customers' USD accounts (ACH and wire in). */
  readonly accounts: Accounts;
  readonly transactions: Transactions;
  readonly exchangeRates: ExchangeRates;
  readonly wallets: Wallets;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly webhooks: Webhooks;
  /** Uploads for limit requests and verifications. */
  readonly documents: Documents;
  /** Simulations, with a sandbox key only. */
  readonly sandbox: Sandbox;
  readonly balances: CustomerBalances;
  readonly events: Events;
  /** `sandbox` or `production`, from the API key. */
  readonly environment: 'sandbox' | 'production';
  readonly baseUrl: string;

  constructor(options: ClientOptions) {
    const transport = new Transport(options);
    this.environment = transport.environment;
    this.baseUrl = transport.baseUrl;
    this.customers = new Customers(transport);
    this.verifications = new Verifications(transport);
    this.limitRequests = new LimitRequests(transport);
    this.bankAccounts = new BankAccounts(transport);
    this.accounts = new Accounts(transport);
    this.transactions = new Transactions(transport);
    this.exchangeRates = new ExchangeRates(transport);
    this.wallets = new Wallets(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.webhooks = new Webhooks();
    this.documents = new Documents(transport);
    this.sandbox = new Sandbox(transport);
    this.balances = new CustomerBalances(transport);
    this.events = new Events(transport);
  }
}
