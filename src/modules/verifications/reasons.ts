/**
 * Rules of a verification's status change beyond the transition table (VERIFICATION_TRANSITIONS):
 * a rejection says why, with at least one reject label; any other status carries no reason.
 */
import { AppError, type FieldError } from '../../core/errors.ts';
import { emptyStatusReason, type StatusReason, type VerificationStatus } from './state.ts';

export const REJECTIONS: readonly VerificationStatus[] = ['TEMPORARY_REJECTION', 'FINAL_REJECTION'];
export const isRejection = (status: VerificationStatus) => REJECTIONS.includes(status);

/** A statusReason as it arrives: the arrays other than rejectLabels may be left out. */
export type StatusReasonInput = {
  rejectLabels?: string[] | undefined;
  rejectSubLabels?: string[] | undefined;
  documents?:
    | { type: string; status: string; comment: string; rejectLabels?: string[] | undefined }[]
    | undefined;
};

const clean = (values: string[] | undefined) => (values ?? []).map((value) => value.trim());

function normalize(input: StatusReasonInput): StatusReason {
  return {
    rejectLabels: clean(input.rejectLabels),
    rejectSubLabels: clean(input.rejectSubLabels),
    documents: (input.documents ?? []).map((document) => ({
      type: document.type.trim(),
      status: document.status.trim(),
      comment: document.comment.trim(),
      rejectLabels: clean(document.rejectLabels),
    })),
  };
}

const isEmpty = (reason: StatusReason) =>
  reason.rejectLabels.length === 0 && reason.rejectSubLabels.length === 0 && reason.documents.length === 0;

/**
 * The reason to store with a move to `status`, or a 400: a rejection needs a statusReason with at least
 * one reject label; APPROVED and UNDER_VERIFICATION take none (an empty one is accepted).
 * `fallback` stands in for a missing rejection reason where one is allowed (sandbox simulation).
 */
export function statusReasonFor(
  status: VerificationStatus,
  input: StatusReasonInput | undefined,
  fallback?: StatusReason,
): StatusReason {
  const errors: FieldError[] = [];
  const reason = input ? normalize(input) : undefined;
  if (isRejection(status)) {
    if (!reason && fallback) return fallback;
    if (!reason) {
      errors.push({ pointer: '/body/statusReason', message: `is required for ${status}` });
    } else {
      if (reason.rejectLabels.length === 0 || reason.rejectLabels.some((label) => label === '')) {
        errors.push({
          pointer: '/body/statusReason/rejectLabels',
          message: `must name at least one reject label for ${status}, none of them blank`,
        });
      }
      reason.documents.forEach((document, index) => {
        for (const field of ['type', 'status', 'comment'] as const) {
          if (document[field] === '') {
            errors.push({
              pointer: `/body/statusReason/documents/${index}/${field}`,
              message: 'must not be blank',
            });
          }
        }
      });
    }
  } else if (reason && !isEmpty(reason)) {
    errors.push({
      pointer: '/body/statusReason',
      message: `is only given with a rejection, not with ${status}`,
    });
  }
  if (errors.length > 0) throw new AppError('invalid_request', 'The request body is invalid', { errors });
  return reason ?? emptyStatusReason();
}
