/**
 * What a partner's data looked like under each released schema, for the upgrade test: keyed by the
 * migration after which it is written, each entry holds SQL written against that version's columns (no
 * later column is named) and what the API must answer for those rows once the database is upgraded to
 * the current schema. A database at version k holds every entry up to k.
 *
 * Entries sit at the versions where a kind of data first fits: customers, verifications, bank accounts
 * and API keys in 001, on-ramps in 003, webhooks in 004, off-ramps and refunds in 010, stablecoin
 * transfers and deposits in 012, rotated signing secrets in 017b, metadata in 045, failure codes in 047,
 * terms of service in 055, Travel Rule data in 060. Rows written before a column existed read back with
 * what the migration that added it filled in (047's failure codes from the reasons' wording, 010's fee
 * parts from the fee).
 */
import { generateApiKey } from '../../src/lib/api-key.ts';

export const PROJECT_ID = '0a000000-0000-4000-8000-000000000001';

/** The partner's sandbox key, issued under 001; its hash is what the database holds. */
export const API_KEY = generateApiKey('sandbox');
/** A key revoked under 001: refused after every upgrade. */
export const REVOKED_KEY = generateApiKey('sandbox');

export type Expected = {
  customers: Record<string, Record<string, unknown>>;
  bankAccounts: Record<string, Record<string, unknown>>;
  transactions: Record<string, Record<string, unknown>>;
  webhookEndpoints: Record<string, Record<string, unknown>>;
  /** Deliveries by endpoint id, newest first, as `GET /webhook-endpoints/{id}/deliveries` lists them. */
  deliveries: Record<string, Record<string, unknown>[]>;
};

export type VersionFixture = { sql: string; expected: Partial<Expected> };

const C = {
  ana: '0c000000-0000-4000-8000-000000000001',
  souza: '0c000000-0000-4000-8000-000000000002',
  bruno: '0c000000-0000-4000-8000-000000000045',
  clara: '0c000000-0000-4000-8000-000000000055',
};
const BANK_ACCOUNT = '0b000000-0000-4000-8000-000000000001';
const BRUNO_ACCOUNT = '0b000000-0000-4000-8000-000000000045';
const ADDRESS = { line1: 'Rua A 1', city: 'Sao Paulo', state: 'SP', postalCode: '01000-000', country: 'BRA' };
const T = {
  onRampSuccess: '07000000-0000-4000-8000-000000000031',
  onRampExpired: '07000000-0000-4000-8000-000000000032',
  onRampAwaiting: '07000000-0000-4000-8000-000000000033',
  offRamp: '07000000-0000-4000-8000-000000000101',
  refunded: '07000000-0000-4000-8000-000000000102',
  onRampChain: '07000000-0000-4000-8000-000000000121',
  transfer: '07000000-0000-4000-8000-000000000122',
  deposit: '07000000-0000-4000-8000-000000000123',
  offRampRejected: '07000000-0000-4000-8000-000000000471',
  heldDeposit: '07000000-0000-4000-8000-000000000601',
};
const E = {
  healthy: '0e000000-0000-4000-8000-000000000041',
  rotated: '0e000000-0000-4000-8000-000000000171',
};
const EVENT = '0f000000-0000-4000-8000-000000000041';
const DELIVERY = '0d000000-0000-4000-8000-000000000041';

/** IVMS101 data of a deposit, as the API records it from `POST /transactions/{id}/travel-rule`. */
const TRAVEL_RULE = {
  walletType: 'SELF_HOSTED',
  originator: {
    originatorPersons: [
      {
        legalPerson: {
          name: {
            nameIdentifier: [{ legalPersonName: 'Acme Trading', legalPersonNameIdentifierType: 'LEGL' }],
          },
        },
      },
    ],
    accountNumber: [`0x${'56'.repeat(20)}`],
  },
  beneficiary: {
    beneficiaryPersons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              { primaryIdentifier: 'Dias', secondaryIdentifier: 'Clara', nameIdentifierType: 'LEGL' },
            ],
          },
        },
      },
    ],
    accountNumber: [`0x${'78'.repeat(20)}`],
  },
};

const at = (day: number, hour = 10) =>
  `2026-01-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const timeline = (...steps: [string, string][]) =>
  `'${JSON.stringify(steps.map(([status, time]) => ({ status, at: time })))}'`;
const NO_REASON = `'{"rejectLabels":[],"rejectSubLabels":[],"documents":[]}'`;

function customer(id: string, type: string, name: string, taxId: string, email: string, day: number) {
  const birth = type === 'INDIVIDUAL' ? "'1990-04-01'" : 'NULL';
  const incorporation = type === 'BUSINESS' ? "'2015-06-30'" : 'NULL';
  return `
INSERT INTO customers (id, project_id, environment, type, name, tax_id, country, email, birth_date,
  incorporation_date, created_at, updated_at)
VALUES ('${id}', '${PROJECT_ID}', 'sandbox', '${type}', '${name}', '${taxId}', 'BRA', '${email}', ${birth},
  ${incorporation}, '${at(day)}', '${at(day)}');
INSERT INTO verifications (id, customer_id, project_id, environment, status, level, status_reason, created_at, updated_at)
VALUES ('${id.replace(/^0c/, '0d')}', '${id}', '${PROJECT_ID}', 'sandbox', 'APPROVED', 'STANDARD', ${NO_REASON},
  '${at(day)}', '${at(day, 11)}');`;
}

function customerAnswer(id: string, type: string, name: string, taxId: string, email: string, day: number) {
  return {
    id,
    type,
    name,
    taxId,
    country: 'BRA',
    email,
    ...(type === 'INDIVIDUAL' ? { birthDate: '1990-04-01' } : { incorporationDate: '2015-06-30' }),
    verification: { id: id.replace(/^0c/, '0d'), status: 'APPROVED', level: 'STANDARD' },
    createdAt: at(day),
    updatedAt: at(day),
  };
}

export const FIXTURES: Record<string, VersionFixture> = {
  '001_core.sql': {
    sql: `
INSERT INTO projects (id, name, created_at) VALUES ('${PROJECT_ID}', 'Upgrade partner', '${at(1)}');
INSERT INTO api_keys (id, project_id, environment, name, prefix, key_hash, created_at, revoked_at) VALUES
  ('0a000000-0000-4000-8000-00000000000a', '${PROJECT_ID}', 'sandbox', 'integration', '${API_KEY.prefix}',
   '${API_KEY.hash}', '${at(1)}', NULL),
  ('0a000000-0000-4000-8000-00000000000b', '${PROJECT_ID}', 'sandbox', 'leaked', '${REVOKED_KEY.prefix}',
   '${REVOKED_KEY.hash}', '${at(1)}', '${at(2)}');
${customer(C.ana, 'INDIVIDUAL', 'Ana Souza', '529.982.247-25', 'ana@example.com', 2)}
${customer(C.souza, 'BUSINESS', 'Souza Comercio Ltda', '11.222.333/0001-81', 'fin@souza.example', 3)}
INSERT INTO bank_accounts (id, customer_id, project_id, environment, name, type, rail, currency, key_type,
  key_value, holder_type, holder_relationship, holder_legal_name, holder_tax_id, holder_email, holder_address,
  holder_verification_status, holder_verification_level, created_at, updated_at)
VALUES ('${BANK_ACCOUNT}', '${C.ana}', '${PROJECT_ID}', 'sandbox', 'Ana checking', 'EXTERNAL', 'PIX', 'BRL',
  'CPF', '529.982.247-25', 'INDIVIDUAL', 'SELF', 'Ana Souza', '529.982.247-25', 'ana@example.com',
  '${JSON.stringify(ADDRESS)}', 'APPROVED', 'STANDARD', '${at(2)}', '${at(2)}');`,
    expected: {
      customers: {
        [C.ana]: customerAnswer(C.ana, 'INDIVIDUAL', 'Ana Souza', '529.982.247-25', 'ana@example.com', 2),
        [C.souza]: customerAnswer(
          C.souza,
          'BUSINESS',
          'Souza Comercio Ltda',
          '11.222.333/0001-81',
          'fin@souza.example',
          3,
        ),
      },
      bankAccounts: {
        [BANK_ACCOUNT]: {
          id: BANK_ACCOUNT,
          customerId: C.ana,
          name: 'Ana checking',
          identifier: { keyType: 'CPF', keyValue: '529.982.247-25' },
          holder: {
            type: 'INDIVIDUAL',
            relationship: 'SELF',
            legalName: 'Ana Souza',
            taxId: '529.982.247-25',
            email: 'ana@example.com',
            address: ADDRESS,
            verification: { status: 'APPROVED', level: 'STANDARD' },
          },
          metadata: {},
          createdAt: at(2),
        },
      },
    },
  },

  '003_transactions.sql': {
    sql: `
INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
  target_currency, rail, pix_txid, br_code, expires_at, fee_basis_points, fee_flat, deposit_amount,
  deposit_end_to_end_id, deposited_at, rate, fee, net_amount, target_amount, failure_reason, timeline,
  created_at, updated_at)
VALUES
  ('${T.onRampSuccess}', '${C.ana}', '${PROJECT_ID}', 'sandbox', 'ON_RAMP', 'SUCCESS', 'BRL', 100000, 'USDC',
   'PIX', 'UPG003SUCCESS', '00020101upgrade003success', '${at(5, 11)}', 100, 0, 100000,
   'E00000000202601051000UPG003A', '${at(5, 10)}', 1850000000, 1000, 99000, 183150000, NULL,
   ${timeline(['AWAITING_FUNDS', at(5)], ['TRANSFERRING_FIAT', at(5)], ['TRADING', at(5)], ['TRANSFERRING_STABLECOIN', at(5)], ['SUCCESS', at(5)])},
   '${at(5)}', '${at(5)}'),
  ('${T.onRampExpired}', '${C.ana}', '${PROJECT_ID}', 'sandbox', 'ON_RAMP', 'EXPIRED', 'BRL', 25050, 'USDT',
   'PIX', 'UPG003EXPIRED', '00020101upgrade003expired', '${at(6, 11)}', 100, 0, NULL, NULL, NULL, NULL, NULL,
   NULL, NULL, 'No deposit arrived before ${at(6, 11)}',
   ${timeline(['AWAITING_FUNDS', at(6)], ['EXPIRED', at(6, 11)])}, '${at(6)}', '${at(6, 11)}'),
  ('${T.onRampAwaiting}', '${C.souza}', '${PROJECT_ID}', 'sandbox', 'ON_RAMP', 'AWAITING_FUNDS', 'BRL', 777,
   'USDC', 'PIX', 'UPG003AWAITING', '00020101upgrade003awaiting', '${at(7, 11)}', 100, 0, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL, ${timeline(['AWAITING_FUNDS', at(7)])}, '${at(7)}', '${at(7)}');
INSERT INTO pix_deposits (end_to_end_id, environment, txid, transaction_id, amount, paid_at, outcome, payload, received_at)
VALUES ('E00000000202601051000UPG003A', 'sandbox', 'UPG003SUCCESS', '${T.onRampSuccess}', 100000, '${at(5)}',
  'APPLIED', '{}', '${at(5)}');`,
    expected: {
      transactions: {
        [T.onRampSuccess]: {
          id: T.onRampSuccess,
          customerId: C.ana,
          type: 'ON_RAMP',
          status: 'SUCCESS',
          request: { currency: 'BRL', amount: '1000.00', targetCurrency: 'USDC', blockchain: null },
          depositInstructions: { rail: 'PIX', brCode: '00020101upgrade003success', amount: '1000.00' },
          refund: null,
          receipt: {
            sourceCurrency: 'BRL',
            sourceAmount: '1000.00',
            fee: '10.00',
            fees: {
              platform: { amount: '10.00', currency: 'BRL' },
              partner: { amount: '0.00', currency: 'BRL' },
            },
            netAmount: '990.00',
            rate: '0.185',
            targetCurrency: 'USDC',
            targetAmount: '183.150000',
          },
          failureReason: null,
          failureCode: null,
          metadata: {},
          createdAt: at(5),
        },
        [T.onRampExpired]: {
          id: T.onRampExpired,
          type: 'ON_RAMP',
          status: 'EXPIRED',
          request: { currency: 'BRL', amount: '250.50', targetCurrency: 'USDT' },
          receipt: null,
          failureReason: `No deposit arrived before ${at(6, 11)}`,
          // filled in by 047 from the reason's wording
          failureCode: 'deposit_window_expired',
          timeline: [
            { status: 'AWAITING_FUNDS', at: at(6) },
            { status: 'EXPIRED', at: at(6, 11) },
          ],
        },
        [T.onRampAwaiting]: {
          id: T.onRampAwaiting,
          customerId: C.souza,
          status: 'AWAITING_FUNDS',
          request: { currency: 'BRL', amount: '7.77', targetCurrency: 'USDC' },
          depositInstructions: { expiresAt: at(7, 11) },
        },
      },
    },
  },

  '004_webhooks.sql': {
    sql: `
INSERT INTO events (id, project_id, environment, type, resource_type, resource_id, data, created_at, dispatched_at)
VALUES ('${EVENT}', '${PROJECT_ID}', 'sandbox', 'transaction.updated', 'transaction', '${T.onRampSuccess}',
  '{"id":"${T.onRampSuccess}","status":"SUCCESS"}', '${at(5)}', '${at(5)}');
INSERT INTO webhook_endpoints (id, project_id, environment, url, event_types, secret_ciphertext, status,
  disabled_reason, failing_since, created_at, updated_at)
VALUES ('${E.healthy}', '${PROJECT_ID}', 'sandbox', 'https://partner.example/hooks', NULL, 'v1:sealed', 'ENABLED',
  NULL, NULL, '${at(4)}', '${at(4)}');
INSERT INTO webhook_deliveries (id, endpoint_id, project_id, environment, event_id, event_seq, resource_id,
  status, attempt_count, next_attempt_at, retry_until, claim_token, manual, last_error, created_at, updated_at)
SELECT '${DELIVERY}', '${E.healthy}', '${PROJECT_ID}', 'sandbox', '${EVENT}', seq, '${T.onRampSuccess}',
  'DELIVERED', 2, NULL, '${at(6)}', NULL, false, NULL, '${at(5)}', '${at(5, 12)}'
  FROM events WHERE id = '${EVENT}';
INSERT INTO webhook_attempts (id, delivery_id, attempted_at, status_code, latency_ms, error) VALUES
  ('0d100000-0000-4000-8000-000000000001', '${DELIVERY}', '${at(5, 11)}', 503, 120, 'HTTP 503'),
  ('0d100000-0000-4000-8000-000000000002', '${DELIVERY}', '${at(5, 12)}', 200, 45, NULL);`,
    expected: {
      webhookEndpoints: {
        [E.healthy]: {
          id: E.healthy,
          url: 'https://partner.example/hooks',
          events: null,
          status: 'ENABLED',
          disabledReason: null,
          previousSecretExpiresAt: null,
          createdAt: at(4),
        },
      },
      deliveries: {
        [E.healthy]: [
          {
            id: DELIVERY,
            endpointId: E.healthy,
            eventId: EVENT,
            eventType: 'transaction.updated',
            status: 'DELIVERED',
            attempts: [
              { at: at(5, 11), statusCode: 503, latencyMs: 120, error: 'HTTP 503' },
              { at: at(5, 12), statusCode: 200, latencyMs: 45, error: null },
            ],
            nextAttemptAt: null,
          },
        ],
      },
    },
  },

  '010_money_out.sql': {
    sql: `
INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
  target_currency, rail, pix_txid, br_code, expires_at, fee_basis_points, fee_flat, deposit_amount,
  deposit_end_to_end_id, deposited_at, rate, fee, net_amount, target_amount, failure_reason, timeline,
  created_at, updated_at, limit_amount_brl, platform_fee, partner_fee, bank_account_id, purpose, memo,
  metadata, end_to_end_id, refund_status, refund_amount, refund_failure_reason, refund_updated_at)
VALUES
  ('${T.offRamp}', '${C.ana}', '${PROJECT_ID}', 'sandbox', 'OFF_RAMP', 'SUCCESS', 'USDC', 50000000, 'BRL', 'PIX',
   NULL, NULL, NULL, 100, 0, NULL, NULL, NULL, 54000000000, 500000, 49500000, 26730, NULL,
   ${timeline(['TRADING', at(10)], ['TRANSFERRING_FIAT', at(10)], ['SUCCESS', at(10, 11)])}, '${at(10)}',
   '${at(10, 11)}', 27000, 400000, 100000, '${BANK_ACCOUNT}', 'PERSONAL_ACCOUNT', 'rent', '{"invoice":"A-7"}',
   'E00000000202601101000UPG010A', NULL, NULL, NULL, NULL),
  ('${T.refunded}', '${C.souza}', '${PROJECT_ID}', 'sandbox', 'ON_RAMP', 'EXPIRED', 'BRL', 5000, 'USDC', 'PIX',
   'UPG010REFUNDED', '00020101upgrade010refunded', '${at(11, 11)}', 100, 0, NULL, NULL, NULL, NULL, NULL, NULL,
   NULL, 'The deposit arrived after the charge expired at ${at(11, 11)}',
   ${timeline(['AWAITING_FUNDS', at(11)], ['EXPIRED', at(11, 11)])}, '${at(11)}', '${at(11, 13)}', 5000, NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, 'SUCCESS', 5000, NULL, '${at(11, 13)}');`,
    expected: {
      transactions: {
        [T.offRamp]: {
          id: T.offRamp,
          customerId: C.ana,
          type: 'OFF_RAMP',
          status: 'SUCCESS',
          request: {
            sourceCurrency: 'USDC',
            sourceAmount: '50.000000',
            targetCurrency: 'BRL',
            bankAccountId: BANK_ACCOUNT,
            purpose: 'PERSONAL_ACCOUNT',
            memo: 'rent',
          },
          payout: { rail: 'PIX', bankAccountId: BANK_ACCOUNT, endToEndId: 'E00000000202601101000UPG010A' },
          receipt: {
            fee: '0.500000',
            fees: {
              platform: { amount: '0.400000', currency: 'USDC' },
              partner: { amount: '0.100000', currency: 'USDC' },
            },
            netAmount: '49.500000',
            rate: '5.4',
            targetAmount: '267.30',
          },
          returnReason: null,
          metadata: { invoice: 'A-7' },
        },
        [T.refunded]: {
          id: T.refunded,
          status: 'EXPIRED',
          refund: { status: 'SUCCESS', amount: '50.00', failureReason: null, updatedAt: at(11, 13) },
          failureCode: 'deposit_after_expiry',
        },
      },
    },
  },

  '012_wallets.sql': {
    sql: `
INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
  target_currency, rail, pix_txid, br_code, expires_at, fee_basis_points, fee_flat, deposit_amount,
  deposit_end_to_end_id, deposited_at, rate, fee, net_amount, target_amount, failure_reason, timeline,
  created_at, updated_at, limit_amount_brl, platform_fee, partner_fee, blockchain, transaction_hash,
  block_explorer_url)
VALUES ('${T.onRampChain}', '${C.souza}', '${PROJECT_ID}', 'sandbox', 'ON_RAMP', 'SUCCESS', 'BRL', 20000, 'USDT',
  'PIX', 'UPG012CHAIN', '00020101upgrade012chain', '${at(12, 11)}', 0, 0, 20000, 'E00000000202601121000UPG012A',
  '${at(12)}', 1800000000, 0, 20000, 36000000, NULL, ${timeline(['AWAITING_FUNDS', at(12)], ['SUCCESS', at(12)])},
  '${at(12)}', '${at(12)}', 20000, 0, 0, 'POLYGON', '0x${'ab'.repeat(32)}', 'https://amoy.polygonscan.com/tx/0x${'ab'.repeat(32)}');
INSERT INTO chain_transactions (id, customer_id, project_id, environment, type, status, currency, amount,
  blockchain, to_customer_id, from_address, to_address, transaction_hash, failure_reason, metadata, timeline,
  created_at, updated_at)
VALUES
  ('${T.transfer}', '${C.ana}', '${PROJECT_ID}', 'sandbox', 'TRANSFER', 'SUCCESS', 'USDC', 12500000, 'BASE',
   '${C.souza}', NULL, NULL, NULL, NULL, '{"note":"split"}',
   ${timeline(['PROCESSING', at(13)], ['SUCCESS', at(13)])}, '${at(13)}', '${at(13)}'),
  ('${T.deposit}', '${C.souza}', '${PROJECT_ID}', 'sandbox', 'DEPOSIT', 'SUCCESS', 'USDT', 3000000, 'ETHEREUM',
   NULL, '0x${'12'.repeat(20)}', '0x${'34'.repeat(20)}', '0x${'cd'.repeat(32)}', NULL, NULL,
   ${timeline(['PROCESSING', at(14)], ['SUCCESS', at(14, 11)])}, '${at(14)}', '${at(14, 11)}');`,
    expected: {
      transactions: {
        [T.onRampChain]: {
          id: T.onRampChain,
          status: 'SUCCESS',
          request: { amount: '200.00', targetCurrency: 'USDT', blockchain: 'POLYGON' },
          receipt: {
            targetAmount: '36.000000',
            blockchain: { network: 'POLYGON', transactionHash: `0x${'ab'.repeat(32)}` },
          },
        },
        [T.transfer]: {
          id: T.transfer,
          customerId: C.ana,
          type: 'TRANSFER',
          status: 'SUCCESS',
          request: { currency: 'USDC', amount: '12.500000', blockchain: 'BASE', from: C.ana, to: C.souza },
          depositInstructions: null,
          // moved in the ledger only: no hash
          receipt: {
            sourceAmount: '12.500000',
            blockchain: { network: 'BASE', transactionHash: null, blockExplorerUrl: null },
          },
          metadata: { note: 'split' },
        },
        [T.deposit]: {
          id: T.deposit,
          customerId: C.souza,
          type: 'DEPOSIT',
          status: 'SUCCESS',
          request: {
            currency: 'USDT',
            amount: '3.000000',
            blockchain: 'ETHEREUM',
            from: `0x${'12'.repeat(20)}`,
            to: C.souza,
          },
          receipt: {
            sourceAmount: '3.000000',
            blockchain: { network: 'ETHEREUM', transactionHash: `0x${'cd'.repeat(32)}` },
          },
          failureCode: null,
        },
      },
    },
  },

  '017b_webhook_secret_rotation.sql': {
    sql: `
INSERT INTO webhook_endpoints (id, project_id, environment, url, event_types, secret_ciphertext, status,
  disabled_reason, failing_since, created_at, updated_at, previous_secret_ciphertext, previous_secret_expires_at)
VALUES ('${E.rotated}', '${PROJECT_ID}', 'sandbox', 'https://partner.example/ramps',
  '{transaction.created,transaction.updated}', 'v1:sealed-new', 'DISABLED', 'Disabled by the partner', NULL,
  '${at(17)}', '${at(17, 12)}', 'v1:sealed-old', '${at(18)}');`,
    expected: {
      webhookEndpoints: {
        [E.rotated]: {
          id: E.rotated,
          url: 'https://partner.example/ramps',
          events: ['transaction.created', 'transaction.updated'],
          status: 'DISABLED',
          disabledReason: 'Disabled by the partner',
          previousSecretExpiresAt: at(18),
          updatedAt: at(17, 12),
        },
      },
      deliveries: { [E.rotated]: [] },
    },
  },

  '045_partner_metadata.sql': {
    sql: `
${customer(C.bruno, 'INDIVIDUAL', 'Bruno Lima', '111.444.777-35', 'bruno@example.com', 20)}
UPDATE customers SET metadata = '{"crmId":"B-45"}' WHERE id = '${C.bruno}';
INSERT INTO bank_accounts (id, customer_id, project_id, environment, name, type, rail, currency, key_type,
  key_value, holder_type, holder_relationship, holder_legal_name, holder_tax_id, holder_email, holder_address,
  holder_verification_status, holder_verification_level, created_at, updated_at, metadata)
VALUES ('${BRUNO_ACCOUNT}', '${C.bruno}', '${PROJECT_ID}', 'sandbox', 'Bruno savings', 'EXTERNAL', 'PIX', 'BRL',
  'EMAIL', 'bruno@example.com', 'INDIVIDUAL', 'SELF', 'Bruno Lima', '111.444.777-35', 'bruno@example.com',
  '${JSON.stringify(ADDRESS)}', 'APPROVED', 'STANDARD', '${at(20)}', '${at(20)}', '{"ledger":"L-9"}');`,
    expected: {
      customers: {
        [C.bruno]: {
          ...customerAnswer(C.bruno, 'INDIVIDUAL', 'Bruno Lima', '111.444.777-35', 'bruno@example.com', 20),
          metadata: { crmId: 'B-45' },
        },
      },
      bankAccounts: {
        [BRUNO_ACCOUNT]: {
          id: BRUNO_ACCOUNT,
          customerId: C.bruno,
          identifier: { keyType: 'EMAIL', keyValue: 'bruno@example.com' },
          metadata: { ledger: 'L-9' },
        },
      },
    },
  },

  '047_failure_codes.sql': {
    sql: `
INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
  target_currency, rail, fee_basis_points, fee_flat, rate, fee, net_amount, target_amount, failure_reason,
  failure_code, timeline, created_at, updated_at, limit_amount_brl, platform_fee, partner_fee, bank_account_id,
  purpose, end_to_end_id)
VALUES ('${T.offRampRejected}', '${C.ana}', '${PROJECT_ID}', 'sandbox', 'OFF_RAMP', 'FAILED', 'USDT', 10000000,
  'BRL', 'PIX', 0, 0, 54000000000, 0, 10000000, 5400, 'The PIX payment was rejected: key not found',
  'payout_rejected', ${timeline(['TRADING', at(21)], ['FAILED', at(21, 11)])}, '${at(21)}', '${at(21, 11)}',
  5400, 0, 0, '${BANK_ACCOUNT}', 'INVESTMENT', 'E00000000202601211000UPG047A');`,
    expected: {
      transactions: {
        [T.offRampRejected]: {
          id: T.offRampRejected,
          type: 'OFF_RAMP',
          status: 'FAILED',
          request: { sourceCurrency: 'USDT', sourceAmount: '10.000000', purpose: 'INVESTMENT' },
          failureReason: 'The PIX payment was rejected: key not found',
          failureCode: 'payout_rejected',
          metadata: {},
        },
      },
    },
  },

  '055_kyb.sql': {
    sql: `
${customer(C.clara, 'INDIVIDUAL', 'Clara Dias', '390.533.447-05', 'clara@example.com', 22)}
UPDATE customers SET tos_accepted_at = '${at(22, 12)}' WHERE id = '${C.clara}';`,
    expected: {
      customers: {
        [C.clara]: {
          ...customerAnswer(C.clara, 'INDIVIDUAL', 'Clara Dias', '390.533.447-05', 'clara@example.com', 22),
          tosAcceptedAt: at(22, 12),
        },
      },
    },
  },

  '060_screening.sql': {
    sql: `
INSERT INTO chain_transactions (id, customer_id, project_id, environment, type, status, currency, amount,
  blockchain, from_address, to_address, transaction_hash, timeline, created_at, updated_at, travel_rule, credit_due)
VALUES ('${T.heldDeposit}', '${C.clara}', '${PROJECT_ID}', 'sandbox', 'DEPOSIT', 'AWAITING_TRAVEL_RULE', 'USDC',
  2000000000, 'POLYGON', '0x${'56'.repeat(20)}', '0x${'78'.repeat(20)}', '0x${'ef'.repeat(32)}',
  ${timeline(['PROCESSING', at(23)], ['AWAITING_TRAVEL_RULE', at(23)])}, '${at(23)}', '${at(23)}',
  '${JSON.stringify(TRAVEL_RULE)}', true);`,
    expected: {
      transactions: {
        [T.heldDeposit]: {
          id: T.heldDeposit,
          customerId: C.clara,
          type: 'DEPOSIT',
          status: 'AWAITING_TRAVEL_RULE',
          request: { currency: 'USDC', amount: '2000.000000', blockchain: 'POLYGON', to: C.clara },
          travelRule: TRAVEL_RULE,
        },
      },
    },
  },
};

/** Everything a database at `version` holds (every entry up to it), and what the API must answer for it. */
export function expectedAt(files: readonly string[], version: string): Expected {
  const expected: Expected = {
    customers: {},
    bankAccounts: {},
    transactions: {},
    webhookEndpoints: {},
    deliveries: {},
  };
  for (const file of files.slice(0, files.indexOf(version) + 1)) {
    const fixture = FIXTURES[file]?.expected;
    if (!fixture) continue;
    Object.assign(expected.customers, fixture.customers);
    Object.assign(expected.bankAccounts, fixture.bankAccounts);
    Object.assign(expected.transactions, fixture.transactions);
    Object.assign(expected.webhookEndpoints, fixture.webhookEndpoints);
    Object.assign(expected.deliveries, fixture.deliveries);
  }
  return expected;
}
