/**
 * The compliance review of a limit request (seed 3.1), as tables and a pure decision function:
 * - APPROVE grants the requested amounts (approved.* = requested.*); a comment is optional;
 * - PARTIALLY_APPROVE grants, for the requested limits only, amounts none above the requested one and at
 *   least one below it; a comment is required;
 * - REJECT grants nothing (approved.* all null); a comment is required.
 * Only a request IN_REVIEW can be reviewed; every outcome is final.
 */
import { AppError, type FieldError } from '../../core/errors.ts';
import {
  LIMIT_KINDS,
  type LimitAmounts,
  type LimitAmountsInput,
  type LimitRequestStatus,
  validateRequestedLimits,
} from './rules.ts';

export const LIMIT_REQUEST_TRANSITIONS: Record<LimitRequestStatus, readonly LimitRequestStatus[]> = {
  IN_REVIEW: ['APPROVED', 'PARTIALLY_APPROVED', 'REJECTED'],
  APPROVED: [],
  PARTIALLY_APPROVED: [],
  REJECTED: [],
};

export const REVIEW_DECISIONS = {
  APPROVE: { status: 'APPROVED', grants: 'requested', comment: 'optional' },
  PARTIALLY_APPROVE: { status: 'PARTIALLY_APPROVED', grants: 'lower', comment: 'required' },
  REJECT: { status: 'REJECTED', grants: 'nothing', comment: 'required' },
} as const satisfies Record<
  string,
  {
    status: LimitRequestStatus;
    grants: 'requested' | 'lower' | 'nothing';
    comment: 'optional' | 'required';
  }
>;

export type ReviewDecision = keyof typeof REVIEW_DECISIONS;
export const REVIEW_DECISION_NAMES = Object.keys(REVIEW_DECISIONS) as ReviewDecision[];

export type ReviewInput = {
  decision: ReviewDecision;
  approved?: LimitAmountsInput | undefined;
  reviewComment?: string | null | undefined;
};

export type ReviewOutcome = {
  status: Exclude<LimitRequestStatus, 'IN_REVIEW'>;
  approved: LimitAmounts;
  reviewComment: string | null;
};

const NONE: LimitAmounts = { single: null, daily: null, monthly: null };

const sameAmounts = (a: LimitAmounts, b: LimitAmounts) => LIMIT_KINDS.every((kind) => a[kind] === b[kind]);

/** The approved amounts of a partial approval, or the problems with them. */
function partialGrant(requested: LimitAmounts, input: LimitAmountsInput | undefined, errors: FieldError[]) {
  if (input === undefined) {
    errors.push({ pointer: '/body/approved', message: 'is required with PARTIALLY_APPROVE' });
    return NONE;
  }
  const checked = validateRequestedLimits(input, '/body/approved');
  if (!checked.ok) {
    errors.push(...checked.errors);
    return NONE;
  }
  const approved = checked.amounts;
  let lower = false;
  const before = errors.length;
  for (const kind of LIMIT_KINDS) {
    const asked = requested[kind];
    const granted = approved[kind];
    const pointer = `/body/approved/${kind}`;
    if (asked === null && granted !== null) {
      errors.push({ pointer, message: `was not requested; only requested limits are granted` });
    } else if (asked !== null && granted === null) {
      errors.push({ pointer, message: 'is required: every requested limit is granted or lowered' });
    } else if (asked !== null && granted !== null) {
      if (granted > asked) errors.push({ pointer, message: 'must not be greater than the requested amount' });
      if (granted < asked) lower = true;
    }
  }
  if (errors.length === before && !lower) {
    errors.push({
      pointer: '/body/approved',
      message:
        'must be below the requested amount for at least one limit; use APPROVE to grant the request in full',
    });
  }
  return approved;
}

/**
 * Decides the outcome of a review of a request for `requested`; one 400 listing every problem with the
 * body. The caller checks the request is IN_REVIEW.
 */
export function decideReview(requested: LimitAmounts, input: ReviewInput): ReviewOutcome {
  const rule = REVIEW_DECISIONS[input.decision];
  const errors: FieldError[] = [];
  const comment = input.reviewComment?.trim() || null;
  if (rule.comment === 'required' && comment === null) {
    errors.push({ pointer: '/body/reviewComment', message: `is required with ${input.decision}` });
  }
  let approved = NONE;
  if (rule.grants === 'requested') {
    approved = requested;
    // Repeating the requested amounts is harmless; anything else is a partial approval in disguise.
    if (input.approved !== undefined) {
      const given = validateRequestedLimits(input.approved, '/body/approved');
      if (!given.ok || !sameAmounts(given.amounts, requested)) {
        errors.push({
          pointer: '/body/approved',
          message: 'must be left out with APPROVE (the requested amounts are granted); use PARTIALLY_APPROVE',
        });
      }
    }
  } else if (rule.grants === 'lower') {
    approved = partialGrant(requested, input.approved, errors);
  } else if (input.approved !== undefined) {
    errors.push({ pointer: '/body/approved', message: 'must be left out with REJECT: nothing is granted' });
  }
  if (errors.length > 0) throw new AppError('invalid_request', 'The review is invalid', { errors });
  return {
    status: rule.status,
    approved: rule.grants === 'nothing' ? NONE : approved,
    reviewComment: comment,
  };
}

export const canMoveLimitRequest = (from: LimitRequestStatus, to: LimitRequestStatus): boolean =>
  LIMIT_REQUEST_TRANSITIONS[from].includes(to);
