/**
 * Travel Rule rules and the IVMS101 shape. A transfer to an external address worth at least the threshold
 * (stablecoins counted at par with the US dollar) must say who the beneficiary is and whether the wallet
 * is self-hosted or held by a VASP (named); a deposit worth at least the threshold waits for the
 * originator's data. Names are stored as IVMS101 natural or legal persons.
 */
import { invalidField } from '../../core/errors.ts';

export type WalletType = 'SELF_HOSTED' | 'HOSTED';

export type TravelRuleParty = {
  name: string;
  type?: 'INDIVIDUAL' | 'BUSINESS' | undefined;
  country?: string | undefined;
  birthDate?: string | undefined;
  nationalIdentifier?: string | undefined;
};

export type Vasp = { name: string; lei?: string | undefined };

export type TransferTravelRule = {
  beneficiary: TravelRuleParty;
  walletType: WalletType;
  vasp?: Vasp | undefined;
};
export type DepositTravelRule = {
  originator: TravelRuleParty;
  walletType: WalletType;
  vasp?: Vasp | undefined;
};

/** Stablecoin amounts carry 6 decimals; the threshold is in US cents. */
export const reachesThreshold = (amount6: bigint, thresholdCents: bigint) =>
  amount6 >= thresholdCents * 10_000n;

/** How far back a customer's transfers to one counterparty are added up against the threshold. */
export const TRAVEL_RULE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A transfer already made to the counterparty within the window (amount in millionths, at par with USD). */
export type WindowTransfer = { id: string; amount: number | bigint; at: Date };

/**
 * A transfer to an external address against the customer's transfers to the same address over the last
 * 24 h: the rolling total (this one included) at or above the threshold needs Travel Rule data; and the
 * transfer that brings a total made only of transfers below the threshold up to it completes a split sum
 * (structuring), which opens a compliance case.
 */
export function travelRuleWindow(
  earlier: readonly WindowTransfer[],
  amount6: bigint,
  thresholdCents: bigint,
) {
  const before = earlier.reduce((sum, t) => sum + BigInt(t.amount), 0n);
  const total = before + amount6;
  const required = reachesThreshold(total, thresholdCents);
  const split =
    required &&
    earlier.length > 0 &&
    !reachesThreshold(before, thresholdCents) &&
    !reachesThreshold(amount6, thresholdCents);
  return { total, required, split };
}

/** 400s about the Travel Rule object, each located by its pointer. */
export function checkTravelRule(
  value: { walletType: WalletType; vasp?: Vasp | undefined } & (
    | { beneficiary: TravelRuleParty }
    | { originator: TravelRuleParty }
  ),
  pointer: string,
): void {
  const party = 'beneficiary' in value ? value.beneficiary : value.originator;
  const partyPointer = `${pointer}/${'beneficiary' in value ? 'beneficiary' : 'originator'}`;
  if (party.name.trim().length === 0) throw invalidField(`${partyPointer}/name`, 'must not be blank');
  if (party.type === 'BUSINESS' && party.birthDate !== undefined)
    throw invalidField(`${partyPointer}/birthDate`, 'is only for INDIVIDUAL parties');
  if (value.walletType === 'HOSTED' && !value.vasp)
    throw invalidField(
      `${pointer}/vasp`,
      'is required when walletType is HOSTED: name the VASP that holds the wallet',
    );
  if (value.walletType === 'SELF_HOSTED' && value.vasp)
    throw invalidField(`${pointer}/vasp`, 'must be absent when walletType is SELF_HOSTED');
  if (value.vasp && value.vasp.name.trim().length === 0)
    throw invalidField(`${pointer}/vasp/name`, 'must not be blank');
}

/** An IVMS101 person: a natural person's name split into primary (last) and secondary identifiers. */
export function ivmsPerson(party: TravelRuleParty) {
  const name = party.name.trim().replace(/\s+/g, ' ');
  const identification = party.nationalIdentifier
    ? {
        nationalIdentification: {
          nationalIdentifier: party.nationalIdentifier,
          nationalIdentifierType: 'TXID',
        },
      }
    : {};
  if (party.type === 'BUSINESS') {
    return {
      legalPerson: {
        name: { nameIdentifier: [{ legalPersonName: name, legalPersonNameIdentifierType: 'LEGL' as const }] },
        ...identification,
      },
    };
  }
  const parts = name.split(' ');
  const primary = parts.length > 1 ? parts.at(-1)! : name;
  const secondary = parts.length > 1 ? parts.slice(0, -1).join(' ') : undefined;
  return {
    naturalPerson: {
      name: {
        nameIdentifier: [
          {
            primaryIdentifier: primary,
            ...(secondary ? { secondaryIdentifier: secondary } : {}),
            nameIdentifierType: 'LEGL' as const,
          },
        ],
      },
      ...identification,
    },
  };
}

const vaspPerson = (vasp: Vasp) => ({
  legalPerson: {
    name: {
      nameIdentifier: [{ legalPersonName: vasp.name.trim(), legalPersonNameIdentifierType: 'LEGL' as const }],
    },
    ...(vasp.lei
      ? { nationalIdentification: { nationalIdentifier: vasp.lei, nationalIdentifierType: 'LEIX' } }
      : {}),
  },
});

/** Ponte's customer as one side of the message. */
export type OwnParty = { name: string; type: 'INDIVIDUAL' | 'BUSINESS'; taxId: string; address: string };

/** The IVMS101 record of an outbound transfer: our customer the originator, Ponte the originating VASP. */
export function outboundIvms(sender: OwnParty, to: string, rule: TransferTravelRule, vaspName: string) {
  return {
    walletType: rule.walletType,
    originator: {
      originatorPersons: [
        ivmsPerson({ name: sender.name, type: sender.type, nationalIdentifier: sender.taxId }),
      ],
      accountNumber: [sender.address],
    },
    beneficiary: { beneficiaryPersons: [ivmsPerson(rule.beneficiary)], accountNumber: [to] },
    originatingVASP: { originatingVASP: vaspPerson({ name: vaspName }) },
    ...(rule.vasp ? { beneficiaryVASP: { beneficiaryVASP: vaspPerson(rule.vasp) } } : {}),
  };
}

/** The IVMS101 record of an inbound deposit: our customer the beneficiary, Ponte the beneficiary VASP. */
export function inboundIvms(receiver: OwnParty, from: string, rule: DepositTravelRule, vaspName: string) {
  return {
    walletType: rule.walletType,
    originator: { originatorPersons: [ivmsPerson(rule.originator)], accountNumber: [from] },
    beneficiary: {
      beneficiaryPersons: [
        ivmsPerson({ name: receiver.name, type: receiver.type, nationalIdentifier: receiver.taxId }),
      ],
      accountNumber: [receiver.address],
    },
    ...(rule.vasp ? { originatingVASP: { originatingVASP: vaspPerson(rule.vasp) } } : {}),
    beneficiaryVASP: { beneficiaryVASP: vaspPerson({ name: vaspName }) },
  };
}
