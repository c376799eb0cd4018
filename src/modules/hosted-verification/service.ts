/**
 * The end customer's side of a verification: the hosted page reached through `verification.link`.
 * The link's signed token names the verification; submitting its documents (a person's identity document
 * and selfie; a company's articles or shareholder registry, with its proof of address and financial
 * statement when given) moves it to UNDER_VERIFICATION (from NOT_STARTED, or from TEMPORARY_REJECTION as
 * a resubmission) and stores the files, in one transaction with the `customer.verification.updated`
 * event. A company's page lists the people it waits for, each sent to their own link.
 */

import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { InstanceKeys } from '../../lib/instance-keys.ts';
import { verifyLinkToken } from '../../lib/signed-link.ts';
import { listParties, partyFact } from '../associated-parties/service.ts';
import { verificationLinkMinter } from '../customers/link.ts';
import {
  type CompanyDocumentType,
  type ContentType,
  type DocumentType,
  type IdentityDocumentType,
  IMAGE_CONTENT_TYPES,
} from '../documents/kinds.ts';
import type { UploadedFile } from '../documents/multipart.ts';
import { insertDocument, prepareDocument } from '../documents/service.ts';
import { decideVerification } from '../verifications/decide.ts';
import { acceptTerms } from '../verifications/kyb.ts';
import { countedParties } from '../verifications/kyb-rules.ts';
import { canTransition, type VerificationStatus } from '../verifications/state.ts';
import { findVerificationForPage, type PageVerificationRow } from './repo.ts';

export type Submission = { documentType: IdentityDocumentType; document: UploadedFile; selfie: UploadedFile };

/** A company's documents: its articles or shareholder registry, and what helps the review beside them. */
export type CompanySubmission = {
  companyDocumentType: CompanyDocumentType;
  companyDocument: UploadedFile;
  proofOfAddress?: UploadedFile | undefined;
  financialStatement?: UploadedFile | undefined;
};

/** A person the company's verification waits for, who verifies on their own link. */
export type PageParty = {
  name: string;
  roles: ('UBO' | 'REPRESENTATIVE')[];
  status: VerificationStatus;
  /** the person's own hosted link, while their verification takes documents */
  link: string | null;
};

/** One file of a submission: what it is, where a problem with it points. */
type Item = { type: DocumentType; file: UploadedFile; pointer: string; accepted?: readonly ContentType[] };

/** Whether a verification is a BUSINESS customer's own: it takes company documents, not a person's. */
export const isCompanyVerification = (row: PageVerificationRow) =>
  row.customer_type === 'BUSINESS' && !row.associated_party_id;

/** Every file checked: one answer naming each file that is wrong, rather than only the first. */
async function allOrProblems<T>(checks: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(checks);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failures.length === 0) return results.map((result) => (result as PromiseFulfilledResult<T>).value);
  const first = failures[0];
  if (!(first instanceof AppError) || failures.length === 1) throw first;
  const errors = failures.flatMap((failure) => (failure instanceof AppError ? (failure.errors ?? []) : []));
  throw new AppError(first.code, 'The files are not accepted', { errors });
}

export function createHostedVerificationService(
  deps: { db: Database; clock: Clock; config: Config; instanceKeys: InstanceKeys },
  environment: Environment,
) {
  const { db, clock, instanceKeys } = deps;
  const link = verificationLinkMinter(deps, environment);

  /** The verification behind a link, or null when the link is forged, expired or of another environment. */
  async function resolve(token: string): Promise<PageVerificationRow | null> {
    const id = verifyLinkToken(instanceKeys.linkSigning, token, clock());
    if (!id) return null;
    return (await findVerificationForPage(db, id, environment)) ?? null;
  }

  /** Whether the verification takes documents now: NOT_STARTED, or TEMPORARY_REJECTION (a resubmission). */
  const acceptsDocuments = (verification: PageVerificationRow) =>
    canTransition(verification.status, 'UNDER_VERIFICATION');

  /**
   * Stores the documents and moves the verification to UNDER_VERIFICATION. A verification in any
   * other state than NOT_STARTED or TEMPORARY_REJECTION refuses with 409 and stores nothing.
   */
  async function store(verification: PageVerificationRow, items: Item[]): Promise<void> {
    const at = clock();
    const owner = {
      customerId: verification.customer_id,
      projectId: verification.project_id,
      environment: verification.environment,
    };
    const documents = await allOrProblems(
      items.map((item) =>
        prepareDocument({ owner, source: 'HOSTED_PAGE', verificationId: verification.id, at, ...item }),
      ),
    );
    const party = verification.associated_party_id ?? null;
    await db.transaction(async (tx) => {
      // The page shows the terms above the form: submitting it is accepting them (a customer's page only).
      if (party === null) await acceptTerms(tx, verification.customer_id, at);
      await decideVerification(tx, verification.id, 'UNDER_VERIFICATION', undefined, at);
      for (const document of documents) await insertDocument(tx, { ...document, associated_party_id: party });
    });
  }

  /** A person's identity document and selfie. */
  const submit = (verification: PageVerificationRow, submission: Submission) =>
    store(verification, [
      { type: submission.documentType, file: submission.document, pointer: '/body/document' },
      { type: 'SELFIE', file: submission.selfie, pointer: '/body/selfie', accepted: IMAGE_CONTENT_TYPES },
    ]);

  /** A company's documents (a BUSINESS customer's own verification). */
  const submitCompany = (verification: PageVerificationRow, submission: CompanySubmission) =>
    store(verification, [
      {
        type: submission.companyDocumentType,
        file: submission.companyDocument,
        pointer: '/body/companyDocument',
      },
      ...(submission.proofOfAddress
        ? [
            {
              type: 'PROOF_OF_ADDRESS' as const,
              file: submission.proofOfAddress,
              pointer: '/body/proofOfAddress',
            },
          ]
        : []),
      ...(submission.financialStatement
        ? [
            {
              type: 'FINANCIAL_STATEMENT' as const,
              file: submission.financialStatement,
              pointer: '/body/financialStatement',
            },
          ]
        : []),
    ]);

  /**
   * The people a company's verification waits for (every UBO and the representatives, as the rules of
   * approval count them), each with their own link while it takes documents. Empty for a person's page.
   */
  async function partiesOf(verification: PageVerificationRow): Promise<PageParty[]> {
    if (!isCompanyVerification(verification)) return [];
    const tenant = { projectId: verification.project_id, environment: verification.environment };
    const rows = await listParties(db, tenant, verification.customer_id);
    const { ubos, representatives } = countedParties(rows.map(partyFact));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const counted = [...ubos, ...representatives.filter((rep) => !ubos.includes(rep))];
    return counted.flatMap((fact) => {
      const row = byId.get(fact.id);
      if (!row?.verification_id || !row.verification_status) return [];
      const roles: PageParty['roles'] = [];
      if (ubos.includes(fact)) roles.push('UBO');
      if (representatives.includes(fact)) roles.push('REPRESENTATIVE');
      const open = canTransition(row.verification_status, 'UNDER_VERIFICATION');
      return [
        {
          name: row.name,
          roles,
          status: row.verification_status,
          link: open ? link(row.verification_id) : null,
        },
      ];
    });
  }

  return { resolve, acceptsDocuments, submit, submitCompany, partiesOf };
}
