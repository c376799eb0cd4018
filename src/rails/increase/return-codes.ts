/**
 * ACH returns as Increase reports them: `return.return_reason_code` on an ACH transfer, one name per Nacha
 * return code (the SDK documents each name with its code; Increase's ACH returns guide:
 * https://increase.com/documentation/ach-returns). Ponte shows the Nacha code (R01, R02, …) as a returned
 * payout's `returnCode` (its `failureCode` is ach_returned), so a partner reads the code their bank would.
 */
import type Increase from 'increase';

export type AchReturnReason = Increase.ACHTransfer.Return['return_reason_code'];
export type NachaReturnCode = `R${number}`;

/** Every reason Increase may report, with its Nacha code: the compiler insists each one is here. */
export const NACHA_CODE_OF: Record<AchReturnReason, NachaReturnCode> = {
  insufficient_fund: 'R01',
  no_account: 'R03',
  account_closed: 'R02',
  invalid_account_number_structure: 'R04',
  account_frozen_entry_returned_per_ofac_instruction: 'R16',
  credit_entry_refused_by_receiver: 'R23',
  unauthorized_debit_to_consumer_account_using_corporate_sec_code: 'R05',
  corporate_customer_advised_not_authorized: 'R29',
  payment_stopped: 'R08',
  non_transaction_account: 'R20',
  uncollected_funds: 'R09',
  routing_number_check_digit_error: 'R28',
  customer_advised_unauthorized_improper_ineligible_or_incomplete: 'R10',
  amount_field_error: 'R19',
  authorization_revoked_by_customer: 'R07',
  invalid_ach_routing_number: 'R13',
  file_record_edit_criteria: 'R17',
  enr_invalid_individual_name: 'R45',
  returned_per_odfi_request: 'R06',
  limited_participation_dfi: 'R34',
  incorrectly_coded_outbound_international_payment: 'R85',
  account_sold_to_another_dfi: 'R12',
  addenda_error: 'R25',
  beneficiary_or_account_holder_deceased: 'R15',
  customer_advised_not_within_authorization_terms: 'R11',
  corrected_return: 'R74',
  duplicate_entry: 'R24',
  duplicate_return: 'R67',
  enr_duplicate_enrollment: 'R47',
  enr_invalid_dfi_account_number: 'R43',
  enr_invalid_individual_id_number: 'R44',
  enr_invalid_representative_payee_indicator: 'R46',
  enr_invalid_transaction_code: 'R41',
  enr_return_of_enr_entry: 'R40',
  enr_routing_number_check_digit_error: 'R42',
  entry_not_processed_by_gateway: 'R84',
  field_error: 'R69',
  foreign_receiving_dfi_unable_to_settle: 'R83',
  iat_entry_coding_error: 'R80',
  improper_effective_entry_date: 'R18',
  improper_source_document_source_document_presented: 'R39',
  invalid_company_id: 'R21',
  invalid_foreign_receiving_dfi_identification: 'R82',
  invalid_individual_id_number: 'R22',
  item_and_rck_entry_presented_for_payment: 'R53',
  item_related_to_rck_entry_is_ineligible: 'R51',
  mandatory_field_error: 'R26',
  misrouted_dishonored_return: 'R71',
  misrouted_return: 'R61',
  no_errors_found: 'R76',
  non_acceptance_of_r62_dishonored_return: 'R77',
  non_participant_in_iat_program: 'R81',
  permissible_return_entry: 'R31',
  permissible_return_entry_not_accepted: 'R70',
  rdfi_non_settlement: 'R32',
  rdfi_participant_in_check_truncation_program: 'R30',
  return_not_a_duplicate: 'R75',
  return_of_erroneous_or_reversing_debit: 'R62',
  return_of_improper_credit_entry: 'R36',
  return_of_improper_debit_entry: 'R35',
  return_of_xck_entry: 'R33',
  source_document_presented_for_payment: 'R37',
  state_law_affecting_rck_acceptance: 'R50',
  stop_payment_on_item_related_to_rck_entry: 'R52',
  stop_payment_on_source_document: 'R38',
  timely_original_return: 'R73',
  trace_number_error: 'R27',
  untimely_dishonored_return: 'R72',
  untimely_return: 'R68',
  representative_payee_deceased_or_unable_to_continue_in_that_capacity: 'R14',
};

/** An ACH return: the Nacha code (a RETURNED payout's `returnCode`) and Increase's name for it. */
export type AchReturn = { nachaCode: NachaReturnCode; reason: AchReturnReason };

export function achReturnOf(reason: AchReturnReason): AchReturn {
  return { nachaCode: NACHA_CODE_OF[reason], reason };
}

/** Why an ACH payout came back, in words a partner reads: `returned by the receiving bank: R03 (no account)`. */
export const achReturnText = (ret: AchReturn): string =>
  `returned by the receiving bank: ${ret.nachaCode} (${ret.reason.replaceAll('_', ' ')})`;

/** The reason Increase names for a Nacha code (the sandbox's `return {code}` asks by code); undefined if none. */
export function achReturnReasonOf(code: string): AchReturnReason | undefined {
  const upper = code.toUpperCase();
  for (const [reason, nacha] of Object.entries(NACHA_CODE_OF)) {
    if (nacha === upper) return reason as AchReturnReason;
  }
  return undefined;
}
