import { createHash } from "node:crypto";
import { and, desc, eq, ne } from "drizzle-orm";
import {
  checklistState,
  fundingChecklist,
  netProceedsCents,
  possibleChecklistStates,
  type FundingChecklistItem,
  type FundingChecklistKey,
  type FundingFacts,
} from "~/domain/funding-checklist";
import { ACCOUNT_VALIDATION_STATUS_LABELS, type AccountValidationMethod } from "~/domain/servicing-enums";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccountValidations } from "~/server/platform/db/schema.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { idDocumentsOf, type IdDocument } from "~/server/applications/index.server";
import { signedOfferFacts } from "~/server/offers/index.server";
import { sanctionsClearance } from "~/server/sanctions/index.server";
import type { LoanRow } from "./ledger.server";
import { currentPaymentAccount, type PaymentAccountView } from "./payment-accounts.server";

/**
 * The facts of a loan's Funding Checklist, gathered from their owners: the signed agreement and the
 * offer's fee (offers), the fee's handling (the loan), the sanctions clearance (sanctions), the
 * accepted ID document (applications), and the live validation of the loan's *current* payment
 * account (the account the proceeds go to; Change Payment Account before funding changes it). The
 * rules that decide each item are in app/domain/funding-checklist.ts.
 */

export type LoanChecklist = {
  items: FundingChecklistItem[];
  fingerprint: string;
  allMet: boolean;
  feeCents: number;
  netProceedsCents: number;
  account: PaymentAccountView | null;
  idDocuments: IdDocument[];
};

/** sha256 of the items' keys and whether each is met, in order: what the page saw, posted back with Fund Loan. */
export function checklistFingerprint(items: readonly Pick<FundingChecklistItem, "key" | "met">[]): string {
  return createHash("sha256").update(checklistState(items)).digest("hex");
}

/** The checklist state a fingerprint was made from, or null when it matches none (a forged or stale form). */
export function checklistFromFingerprint(fingerprint: string): { key: FundingChecklistKey; met: boolean }[] | null {
  return possibleChecklistStates().find((state) => checklistFingerprint(state) === fingerprint) ?? null;
}

const personName = (p: { name: string; profileName: string | null } | undefined) => (p ? p.profileName?.trim() || p.name : null);

/** The live validation of a bank account (the newest not failed), or null. Read here: the loans module owns the table. */
export async function accountValidation(bankAccountId: string, db: DbOrTx = getDb()) {
  const [row] = await db
    .select()
    .from(bankAccountValidations)
    .where(and(eq(bankAccountValidations.bankAccountId, bankAccountId), ne(bankAccountValidations.status, "failed")))
    .orderBy(desc(bankAccountValidations.createdAt))
    .limit(1);
  return row ?? null;
}

/** The loan's checklist now (inside the caller's transaction when given one). */
export async function loanChecklist(loan: LoanRow, db: DbOrTx = getDb()): Promise<LoanChecklist> {
  const [offer, sanctions, idDocuments, account] = await Promise.all([
    loan.offerId ? signedOfferFacts(loan.offerId, db) : Promise.resolve(null),
    sanctionsClearance(loan.applicationId, db),
    idDocumentsOf(loan.applicationId, db),
    currentPaymentAccount(loan, db),
  ]);
  const validation = account ? await accountValidation(account.bankAccountId, db) : null;
  const accepted = idDocuments.find((d) => d.acceptedAt !== null) ?? null;
  const people = await peopleByIds([loan.originationFeeCollectedBy, accepted?.acceptedById, validation?.recordedBy], db);
  const feeCents = offer?.originationFeeCents ?? 0;
  const facts: FundingFacts = {
    agreement: offer ? { signerName: offer.signerName, signedAt: offer.signedAt.toISOString() } : null,
    fee: {
      handling: loan.originationFeeHandling,
      amountCents: loan.amountCents,
      feeCents,
      collectedBy: personName(people.get(loan.originationFeeCollectedBy ?? "")),
      collectedAt: loan.originationFeeCollectedAt?.toISOString() ?? null,
      reference: loan.originationFeeReference,
    },
    sanctions: { state: sanctions.state, screenedAt: sanctions.screenedAt?.toISOString() ?? null, openMatches: sanctions.openMatches },
    idDocument: {
      accepted: accepted ? { fileName: accepted.fileName, acceptedBy: personName(people.get(accepted.acceptedById ?? "")), acceptedAt: accepted.acceptedAt! } : null,
      waiting: idDocuments.filter((d) => d.acceptedAt === null).length,
    },
    bankAccount: {
      label: account?.label ?? null,
      validation: validation
        ? {
            status: validation.status,
            statusLabel: ACCOUNT_VALIDATION_STATUS_LABELS[validation.status],
            method: validation.method as AccountValidationMethod,
            validatedAt: validation.validatedAt?.toISOString() ?? null,
            recordedBy: personName(people.get(validation.recordedBy ?? "")),
            reference: validation.reference,
          }
        : null,
    },
  };
  const items = fundingChecklist(facts);
  return {
    items,
    fingerprint: checklistFingerprint(items),
    allMet: items.every((i) => i.met),
    feeCents,
    netProceedsCents: netProceedsCents(loan.amountCents, feeCents, loan.originationFeeHandling),
    account,
    idDocuments,
  };
}
