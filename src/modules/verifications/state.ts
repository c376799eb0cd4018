/** The verification state machine. APPROVED and FINAL_REJECTION are final. */
export const VERIFICATION_STATUSES = [
  'NOT_STARTED',
  'UNDER_VERIFICATION',
  'APPROVED',
  'TEMPORARY_REJECTION',
  'FINAL_REJECTION',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION_TRANSITIONS: Record<VerificationStatus, readonly VerificationStatus[]> = {
  NOT_STARTED: ['UNDER_VERIFICATION'],
  UNDER_VERIFICATION: ['APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'],
  TEMPORARY_REJECTION: ['UNDER_VERIFICATION'],
  APPROVED: [],
  FINAL_REJECTION: [],
};

export const canTransition = (from: VerificationStatus, to: VerificationStatus): boolean =>
  VERIFICATION_TRANSITIONS[from].includes(to);

export type StatusReason = {
  rejectLabels: string[];
  rejectSubLabels: string[];
  documents: { type: string; status: string; comment: string; rejectLabels: string[] }[];
};

export const emptyStatusReason = (): StatusReason => ({
  rejectLabels: [],
  rejectSubLabels: [],
  documents: [],
});
