import { type Html, html } from '../../../lib/html.ts';
import { dateTime, when } from '../../kit/parts.ts';

/** Dashboard panels of screening: why a customer or a transaction is on hold, and its Travel Rule data. */

type Hold = { subjectType: string; reason: string; since: string; description: string };

const SUBJECTS: Record<string, string> = {
  CUSTOMER: 'The customer',
  BANK_ACCOUNT_HOLDER: "A bank account's holder",
  ASSOCIATED_PARTY: 'An associated party',
  TRANSFER: 'A transfer',
  DEPOSIT: 'A deposit',
};

/** A notice per open hold: the customer's money movements (or the transaction) wait for compliance. */
export function holdPanel(holds: readonly Hold[]): Html {
  return when(
    holds.length > 0,
    () => html`<section class="panel" role="status" aria-labelledby="holds"><h2 id="holds">Compliance hold</h2><ul>
${holds.map((hold) => html`<li>${SUBJECTS[hold.subjectType] ?? hold.subjectType}: ${hold.description} (since ${dateTime(hold.since)}).</li>`)}
</ul><p class="hint">Money movements concerned are refused with 409 compliance_hold until compliance clears or confirms the match.</p></section>`,
  );
}

type Person = {
  naturalPerson?: { name: { nameIdentifier: { primaryIdentifier: string; secondaryIdentifier?: string }[] } };
  legalPerson?: { name: { nameIdentifier: { legalPersonName: string }[] } };
};

const personName = (person: Person | undefined) => {
  if (!person) return '—';
  if (person.legalPerson) return person.legalPerson.name.nameIdentifier[0]?.legalPersonName ?? '—';
  const id = person.naturalPerson?.name.nameIdentifier[0];
  return id ? [id.secondaryIdentifier, id.primaryIdentifier].filter(Boolean).join(' ') : '—';
};

/** The Travel Rule (IVMS101) data a transfer or deposit carries, when it carries any. */
export function travelRulePanel(tx: object): Html {
  const rule = (tx as { travelRule?: unknown }).travelRule as
    | {
        walletType: string;
        originator: { originatorPersons: Person[]; accountNumber: string[] };
        beneficiary: { beneficiaryPersons: Person[]; accountNumber: string[] };
        originatingVASP?: { originatingVASP: Person };
        beneficiaryVASP?: { beneficiaryVASP: Person };
      }
    | undefined;
  return when(
    rule !== undefined,
    () => html`<section class="panel" aria-labelledby="travel-rule"><h2 id="travel-rule">Travel Rule (IVMS101)</h2><dl>
<dt>Originator</dt><dd>${personName(rule!.originator.originatorPersons[0])} <code>${rule!.originator.accountNumber[0] ?? ''}</code></dd>
<dt>Originating VASP</dt><dd>${personName(rule!.originatingVASP?.originatingVASP)}</dd>
<dt>Beneficiary</dt><dd>${personName(rule!.beneficiary.beneficiaryPersons[0])} <code>${rule!.beneficiary.accountNumber[0] ?? ''}</code></dd>
<dt>Beneficiary VASP</dt><dd>${personName(rule!.beneficiaryVASP?.beneficiaryVASP)}</dd><dt>Wallet</dt><dd>${rule!.walletType.replace('_', '-').toLowerCase()}</dd></dl></section>`,
  );
}
