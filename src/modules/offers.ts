/**
 * What modules offer one another, composed once per process from every module's descriptor
 * (`modules/index.ts`) and handed down in the context: the module that reports something (a screening
 * decision, a send's progress, a PIX received) calls whatever the owning module offered, without importing
 * it. Only types live here, built on the layers below the modules, so that the context can name them.
 */
import type { Executor } from '../db/types.ts';
import type { Environment } from '../lib/environment.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import type { ReceivedFunds, StatusAnswer } from '../rails/fiat-rail.ts';
import type { PixHandlers } from '../rails/pix/registry.ts';

/** What the on-ramp does with fiat a rail confirmed received (a PIX paid; a bank transfer in). */
export type FundsReceived = (environment: Environment, funds: ReceivedFunds) => Promise<void>;

/** An inbound transfer as the US bank reported it (read back from the bank, never from a webhook's body). */
export type InboundBankTransfer = {
  bank: 'INCREASE' | 'SANDBOX';
  /** The bank's id of the transfer: what applies it once. */
  bankTransferId: string;
  rail: 'ACH' | 'WIRE';
  /** The bank's id of the account number it was sent to. */
  accountNumberId: string;
  /** Cents of USD. */
  amount: bigint;
  originatorName: string | null;
  at: Date;
  payload: unknown;
};

/**
 * What became of an inbound transfer: an on-ramp (APPLIED, or HELD while its customer is on hold), a
 * return to make at the bank (RETURNED, with why), or nothing (DUPLICATE: applied before).
 */
export type BankDepositResult = {
  outcome: 'APPLIED' | 'HELD' | 'RETURNED' | 'DUPLICATE';
  transactionId: string | null;
  returnReason: string | null;
};

/** What the on-ramp does with dollars the US bank reports received. */
export type BankFundsReceived = (
  environment: Environment,
  transfer: InboundBankTransfer,
) => Promise<BankDepositResult>;

/**
 * What the off-ramp does with the state of a payout the US bank reports (a transfer read back after a
 * webhook, or listed by a sweep), by the key Ponte sent it under.
 */
export type BankPayoutReported = (
  environment: Environment,
  key: string,
  state: StatusAnswer,
) => Promise<void>;

/** What a screening case is about. */
export type SubjectType = 'CUSTOMER' | 'BANK_ACCOUNT_HOLDER' | 'ASSOCIATED_PARTY' | 'TRANSFER' | 'DEPOSIT';
export type CaseStatus = 'OPEN' | 'CLEARED' | 'CONFIRMED';

/** What a decision effect may use besides its transaction. */
export type DecisionDeps = { chains: ChainRegistry };
type DecisionEffect = (tx: Executor, deps: DecisionDeps, subjectId: string, at: Date) => Promise<unknown>;

/** What a decision does to a subject its owner keeps: a CONFIRM always, a CLEAR when the hold is its own. */
export type SubjectDecisionHandlers = { confirmed: DecisionEffect; cleared?: DecisionEffect };

/** The facts of a decided case a movement it held is released or refused by. */
export type DecidedCase = {
  subject_type: SubjectType;
  subject_id: string;
  customer_id: string;
  status: CaseStatus;
};

/**
 * What a decided hold on a person (a customer, its party, an account's holder) does to the money it
 * stopped on its way out: released (CLEARED) or refused (CONFIRMED).
 */
export type HeldMovementHandler = (
  tx: Executor,
  deps: DecisionDeps,
  decided: DecidedCase,
  at: Date,
) => Promise<void>;

/** What the on-ramp does as the send delivering its stablecoin moves on. */
export type DeliveryHandler = {
  /** The send was signed and broadcast: its hash and where a block explorer shows it. */
  submitted(tx: Executor, transactionId: string, hash: string, url: string): Promise<void>;
  /** The send was confirmed, or failed for good. */
  finished(
    tx: Executor,
    chains: ChainRegistry,
    transactionId: string,
    outcome: 'CONFIRMED' | 'FAILED',
    at: Date,
    reason?: string,
  ): Promise<void>;
  /** The send was refused before it left (a confirmed sanctions match): nothing was sent. */
  refused(tx: Executor, chains: ChainRegistry, transactionId: string, at: Date): Promise<void>;
};

/** What one module offers: each part optional; `composeOffers` checks that every part is offered. */
export type ModuleOffers = {
  /** By subject type, what a screening decision does to a subject this module owns. */
  screeningDecisions?: Partial<Record<SubjectType, SubjectDecisionHandlers>>;
  /** How this module releases or refuses the money a decided hold on a person stopped. */
  holdDecided?: HeldMovementHandler[];
  /** What a chain send delivering an on-ramp's stablecoin does as it moves on (one module offers it). */
  deliveries?: DeliveryHandler;
  /** What fiat a rail confirmed received does to the transaction it pays (one module offers it). */
  fundsReceived?: FundsReceived;
  /** Where the PSP rails hand what they learn (one module offers it). */
  pixIntake?: PixHandlers;
  /** What dollars the US bank reports received do (one module offers it). */
  bankFundsReceived?: BankFundsReceived;
  /** What the US bank's report of a payout does (one module offers it). */
  bankPayoutReported?: BankPayoutReported;
};

/** Every module's offers, put together. */
export type ComposedOffers = {
  screeningDecisions: Partial<Record<SubjectType, SubjectDecisionHandlers>>;
  holdDecided: HeldMovementHandler[];
  deliveries: DeliveryHandler;
  fundsReceived: FundsReceived;
  pixIntake: PixHandlers;
  bankFundsReceived: BankFundsReceived;
  bankPayoutReported: BankPayoutReported;
};
