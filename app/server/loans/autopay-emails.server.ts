import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { formatMoney } from "~/domain/money";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the borrower, about autopay: the copy of the recurring-debit authorisation Regulation E requires
 * (12 CFR 1005.10(b)), autopay's end, and a debit whose amount differs from the last one, told at least
 * ten days ahead (1005.10(d)). The account is named by type and last four only ("Checking ••••1234", as
 * the authorisation shows it); never an account or routing number.
 */

export type StillGoing = { amountCents: number; on: string };

/** The sentence about a debit that is past its cutoff (or in an ACH file) and will still be made. */
export function stillGoingSentence(debit: StillGoing, account: string): string {
  return `The debit of ${formatMoney(debit.amountCents)} on ${formatAgreementDay(debit.on)} from ${account} will still be made.`;
}

/** The sentence about a queued debit that Cancel or Change Autopay stopped. */
export function debitStoppedSentence(debit: StillGoing): string {
  return `The autopay debit of ${formatMoney(debit.amountCents)} scheduled for ${formatAgreementDay(debit.on)} is cancelled and will not be made.`;
}

/** Set Up or Change Autopay: the copy of the authorisation the borrower gave, with its version and time. */
export function autopayAuthorizedEmail(
  data: LoanMailSubject & { changed: boolean; paragraphs: string[]; statement: string; version: string; authorizedAt: string; notes: string[] },
): RenderedEmail {
  const what = data.changed ? "changed autopay" : "set up autopay";
  return layout("autopay-authorized", `Your ${BRAND_NAME} autopay authorization`, data.changed ? "Autopay changed" : "Autopay is on", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `You ${what} on your ${loanName(data)}. This is your copy of the authorization you gave:` },
    ...data.paragraphs.map((text) => ({ kind: "quote" as const, text })),
    { kind: "quote", text: `☑ ${data.statement}` },
    { kind: "fields", rows: [["Authorized at", data.authorizedAt], ["Authorization version", data.version]] },
    ...data.notes.map((text) => ({ kind: "p" as const, text })),
    { kind: "small", text: "To cancel autopay, use Cancel Autopay on your loan's page at least 3 business days before a debit, or send us a message. If you did not set this up, contact us at once." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

/** Cancel Autopay (or autopay ended because the loan takes no more debits): what still goes, what was stopped. */
export function autopayCancelledEmail(data: LoanMailSubject & { reason: string; notes: string[] }): RenderedEmail {
  return layout("autopay-cancelled", `Your ${BRAND_NAME} autopay is off`, "Autopay is off", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `Autopay on your ${loanName(data)} is off: ${data.reason} No further recurring debits will be made under it.` },
    ...data.notes.map((text) => ({ kind: "p" as const, text })),
    { kind: "p", text: "Please pay each installment from your loan's page (Make a Payment) until you set up autopay again." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

/** A queued autopay debit whose amount differs from the previous one (or from what the authorisation showed). */
export function autopayAmountEmail(data: LoanMailSubject & { amountCents: number; debitOn: string; installmentNumber: number; account: string }): RenderedEmail {
  return layout("autopay-amount", `Your next ${BRAND_NAME} autopay debit`, "Your next autopay debit", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `The next autopay debit on your ${loanName(data)} differs from the previous one. Autopay will debit ${formatMoney(data.amountCents)} on ${formatAgreementDay(data.debitOn)} from ${data.account}.`,
    },
    { kind: "fields", rows: [["Amount", formatMoney(data.amountCents)], ["Debit date", formatAgreementDay(data.debitOn)], ["Installment", `#${data.installmentNumber}`]] },
    { kind: "small", text: "To change or cancel autopay, use your loan's page at least 3 business days before the debit." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
