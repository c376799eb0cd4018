/**
 * The end customer's side of a verification: the hosted page reached through `verification.link`.
 * The link's signed token names the verification; submitting an identity document and a selfie moves
 * it to UNDER_VERIFICATION (from NOT_STARTED, or from TEMPORARY_REJECTION as a resubmission) and stores
 * both files, in one transaction with the `customer.verification.updated` event.
 */

import type { Clock } from '../../core/clock.ts';
import { AppError } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { InstanceKeys } from '../../lib/instance-keys.ts';
import { verifyLinkToken } from '../../lib/signed-link.ts';
import { type IdentityDocumentType, IMAGE_CONTENT_TYPES } from '../documents/kinds.ts';
import type { UploadedFile } from '../documents/multipart.ts';
import { insertDocument, prepareDocument } from '../documents/service.ts';
import { decideVerification } from '../verifications/decide.ts';
import { acceptTerms } from '../verifications/kyb.ts';
import { canTransition } from '../verifications/state.ts';
import { findVerificationForPage, type PageVerificationRow } from './repo.ts';

export type Submission = { documentType: IdentityDocumentType; document: UploadedFile; selfie: UploadedFile };

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
  deps: { db: Database; clock: Clock; instanceKeys: InstanceKeys },
  environment: Environment,
) {
  const { db, clock, instanceKeys } = deps;

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
  async function submit(verification: PageVerificationRow, submission: Submission): Promise<void> {
    const at = clock();
    const owner = {
      customerId: verification.customer_id,
      projectId: verification.project_id,
      environment: verification.environment,
    };
    const documents = await allOrProblems([
      prepareDocument({
        owner,
        source: 'HOSTED_PAGE',
        verificationId: verification.id,
        type: submission.documentType,
        file: submission.document,
        pointer: '/body/document',
        at,
      }),
      prepareDocument({
        owner,
        source: 'HOSTED_PAGE',
        verificationId: verification.id,
        type: 'SELFIE',
        file: submission.selfie,
        pointer: '/body/selfie',
        accepted: IMAGE_CONTENT_TYPES,
        at,
      }),
    ]);
    const party = verification.associated_party_id ?? null;
    await db.transaction(async (tx) => {
      // The page shows the terms above the form: submitting it is accepting them (a customer's page only).
      if (party === null) await acceptTerms(tx, verification.customer_id, at);
      await decideVerification(tx, verification.id, 'UNDER_VERIFICATION', undefined, at);
      for (const document of documents) await insertDocument(tx, { ...document, associated_party_id: party });
    });
  }

  return { resolve, acceptsDocuments, submit };
}
