/**
 * A valid request body for every operation that takes one, shown in the reference and sent as is by
 * its "Test Request": the first example of an operation is the one a partner's first click sends.
 * Several examples where the body differs by case (a person or a company, a floating rate or a quote).
 * Ids are those of resources the partner creates first; a test sends each example with its own.
 */
type Example = { summary: string; value: Record<string, unknown> };

/** The ids the examples use for resources a partner creates first. */
export const EXAMPLE_IDS = {
  customerId: '3f1c2a9e-5b7d-4e2f-9a61-0c8d7e5b4a21',
  otherCustomerId: '6a2b9c4d-8e1f-4a3b-9c5d-7e6f8a9b0c1d',
  bankAccountId: '1b2c3d4e-5f60-4718-92a3-b4c5d6e7f809',
  exchangeRateId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
};
const { customerId, otherCustomerId, bankAccountId, exchangeRateId } = EXAMPLE_IDS;

const address = {
  line1: 'Av. Paulista, 1000',
  city: 'São Paulo',
  state: 'SP',
  postalCode: '01310-100',
  country: 'BRA',
};

/** Keyed by "METHOD /path" (OpenAPI path syntax), as the operation names are. */
export const REQUEST_EXAMPLES: Record<string, Record<string, Example>> = {
  'POST /customers': {
    individual: {
      summary: 'A person (CPF)',
      value: {
        type: 'INDIVIDUAL',
        name: 'João Silva',
        taxId: '529.982.247-25',
        country: 'BRA',
        email: 'joao@example.com',
        birthDate: '1990-05-14',
        metadata: { partnerCustomerId: 'cus_1001' },
      },
    },
    business: {
      summary: 'A company (CNPJ)',
      value: {
        type: 'BUSINESS',
        name: 'Exemplo Comércio Ltda',
        taxId: '11.222.333/0001-81',
        country: 'BRA',
        email: 'financeiro@exemplo.example',
        incorporationDate: '2019-05-14',
      },
    },
  },
  'POST /customers/{id}/limit-requests': {
    limits: {
      summary: 'Higher limits, in BRL',
      value: { requested: { single: '10000.00', daily: '20000.00', monthly: '50000.00' } },
    },
  },
  'POST /customers/{id}/associated-parties': {
    ubo: {
      summary: 'A beneficial owner holding 60%',
      value: {
        type: 'INDIVIDUAL',
        role: 'UBO',
        name: 'Ana Costa',
        taxId: '111.444.777-35',
        birthDate: '1985-03-02',
        email: 'ana.costa@exemplo.example',
        address,
        ownershipPercentage: 60,
      },
    },
    representative: {
      summary: 'The legal representative',
      value: {
        type: 'INDIVIDUAL',
        role: 'REPRESENTATIVE',
        name: 'Bruno Lima',
        taxId: '390.533.447-05',
        birthDate: '1979-11-20',
        email: 'bruno.lima@exemplo.example',
        address,
      },
    },
  },
  'POST /customers/{id}/tos': {
    redirect: {
      summary: 'Back to the partner once accepted',
      value: { redirectUrl: 'https://partner.example/onboarding/terms-accepted' },
    },
  },
  'POST /customers/{id}/accounts': {
    usdc: {
      summary: 'A USD account whose deposits convert to USDC on the default chain',
      value: { currency: 'USD' },
    },
    usdtOnTron: {
      summary: 'A USD account whose deposits convert to USDT on Tron',
      value: { currency: 'USD', destinationCurrency: 'USDT', blockchain: 'TRON' },
    },
  },
  'POST /bank-accounts': {
    own: {
      summary: "The customer's own account, keyed by their CPF",
      value: {
        customerId,
        name: 'Conta principal',
        rail: 'PIX',
        currency: 'BRL',
        identifier: { keyType: 'CPF', keyValue: '52998224725' },
        holder: {
          type: 'INDIVIDUAL',
          relationship: 'SELF',
          legalName: 'João Silva',
          taxId: '529.982.247-25',
          email: 'joao@example.com',
          address,
        },
        metadata: { partnerAccountId: 'acc_2001' },
      },
    },
    ach: {
      summary: 'A US checking account paid in USD over ACH, held by a third party',
      value: {
        customerId,
        name: 'Supplier in New York',
        rail: 'ACH',
        currency: 'USD',
        identifier: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
        holder: {
          type: 'BUSINESS',
          relationship: 'THIRD_PARTY',
          legalName: 'Hudson Supply LLC',
          taxId: '12-3456789',
          email: 'billing@hudsonsupply.example',
          address: {
            line1: '350 Fifth Avenue',
            city: 'New York',
            state: 'NY',
            postalCode: '10118',
            country: 'USA',
          },
        },
      },
    },
  },
  'POST /exchange-rates': {
    locked: {
      summary: 'A LOCKED quote: 100 USDC to BRL, guaranteed for a minute',
      value: {
        type: 'LOCKED',
        sourceCurrency: 'USDC',
        targetCurrency: 'BRL',
        sourceAmount: '100',
        timeLock: '1m',
      },
    },
    floating: {
      summary: 'A FLOATING rate: what 1,500 BRL buys in USDC now',
      value: { type: 'FLOATING', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '1500.00' },
    },
  },
  'POST /transactions/on-ramp': {
    amount: {
      summary: 'BRL over PIX into USDC, at the rate when paid',
      value: {
        customerId,
        currency: 'BRL',
        amount: '1500.00',
        targetCurrency: 'USDC',
        metadata: { orderId: 'ord_3001' },
      },
    },
    quote: {
      summary: 'At a LOCKED quote (BRL to USDC) given before',
      value: { customerId, exchangeRateId },
    },
  },
  'POST /transactions/off-ramp': {
    amount: {
      summary: 'USDC out to the customer’s PIX account, at the rate in force',
      value: {
        customerId,
        bankAccountId,
        sourceCurrency: 'USDC',
        sourceAmount: '100.000000',
        purpose: 'PERSONAL_ACCOUNT',
        memo: 'Saque',
      },
    },
    quote: {
      summary: 'At a LOCKED quote (USDC to BRL) given before',
      value: { customerId, bankAccountId, exchangeRateId, purpose: 'PERSONAL_ACCOUNT', memo: 'Saque' },
    },
  },
  'POST /transactions/transfer': {
    customer: {
      summary: 'To another customer of the project',
      value: { currency: 'USDC', from: customerId, to: otherCustomerId, amount: '25.000000' },
    },
    external: {
      summary: 'To an outside address, with the Travel Rule data its amount needs',
      value: {
        currency: 'USDC',
        from: customerId,
        to: '0x52908400098527886E0F7030069857D2E4169EE7',
        amount: '1500.000000',
        blockchain: 'ETHEREUM',
        travelRule: {
          beneficiary: { name: 'Maria Souza', type: 'INDIVIDUAL', country: 'BRA' },
          walletType: 'SELF_HOSTED',
        },
        metadata: { payoutId: 'pay_4001' },
      },
    },
  },
  'POST /transactions/{id}/travel-rule': {
    hosted: {
      summary: 'The originator of a deposit sent from an exchange',
      value: {
        originator: { name: 'Carlos Pereira', type: 'INDIVIDUAL', country: 'BRA' },
        walletType: 'HOSTED',
        vasp: { name: 'Exchange Exemplo Ltda' },
      },
    },
  },
  'POST /webhook-endpoints': {
    endpoint: {
      summary: 'Transactions and verifications, to the partner’s HTTPS endpoint',
      value: {
        url: 'https://partner.example/ponte/webhooks',
        events: ['transaction.created', 'transaction.updated', 'customer.verification.updated'],
      },
    },
  },
  'POST /webhook-endpoints/{id}/rotate-secret': {
    overlap: {
      summary: 'The old secret keeps signing alongside the new one for a day',
      value: { expiresIn: 86400 },
    },
  },
  'POST /sandbox/customers/{id}/verification': {
    review: {
      summary: 'Start the review of a customer NOT_STARTED',
      value: { status: 'UNDER_VERIFICATION' },
    },
    approved: { summary: 'Approve a customer under review', value: { status: 'APPROVED' } },
    rejected: {
      summary: 'Ask a customer under review for a better photo',
      value: {
        status: 'TEMPORARY_REJECTION',
        statusReason: {
          rejectLabels: ['unsatisfactory_photos'],
          documents: [
            {
              type: 'PASSPORT',
              status: 'TEMPORARY_REJECTION',
              comment: 'The photo page is blurred',
              rejectLabels: ['unsatisfactory_photos'],
            },
          ],
        },
      },
    },
  },
  'POST /sandbox/accounts/{id}/deposit': {
    ach: { summary: 'An ACH credit from a US payer', value: { amount: '250.00', rail: 'ACH' } },
    wire: { summary: 'A wire', value: { amount: '500.00', rail: 'WIRE' } },
  },
  'POST /sandbox/transactions/{id}/deposit': {
    exact: { summary: 'The payer pays the on-ramp’s amount', value: { amount: '1500.00' } },
  },
  'POST /sandbox/transactions/{id}/return': {
    closed: { summary: 'The receiving bank sends the PIX back', value: { reason: 'Conta encerrada' } },
  },
  'POST /sandbox/wallets/{address}/deposit': {
    usdc: { summary: 'USDC arriving from outside', value: { currency: 'USDC', amount: '250.50' } },
  },
};
