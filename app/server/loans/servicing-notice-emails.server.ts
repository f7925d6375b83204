import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { formatDay } from "~/domain/formats";

import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { formatMoney } from "~/domain/money";

/**
 * The servicing job's e-mails to a borrower: the payment reminder some days before a due
 * date and the late notice after the grace period. Each names the installment's amount and due date
 * and links to the loan's page; never an account or routing number, never a balance beyond that.
 */

export type NoticeData = LoanMailSubject & { installmentNumber: number; dueDate: string; amountCents: number };
/** The reminder's amount is what brings the loan current: the installment plus any fee due (paid first). */
export type ReminderData = NoticeData & { feesCents: number; autopay?: AutopayReminder | null };

/** Autopay's debit for the installment: the reminder tells it instead of asking for a payment. */
export type AutopayReminder = { amountCents: number; debitOn: string; account: string };

/** "Autopay will debit $X on <date> from ••••1234". */
export function autopayReminderLine(a: AutopayReminder): string {
  return `Autopay will debit ${formatMoney(a.amountCents)} on ${longDate(a.debitOn)} from ${a.account}.`;
}

/** 'yyyy-MM-dd' as "Dec 24, 2026" (the due date is a calendar day: no time zone moves it). */
export function longDate(iso: string): string {
  return formatDay(iso);
}

export function paymentReminderEmail(data: ReminderData): RenderedEmail {
  const loan = loanName(data);
  if (data.autopay)
    return layout("payment-reminder", `Your ${BRAND_NAME} autopay debit is coming up`, "Your next payment is coming up", [
      { kind: "p", text: "Hello," },
      { kind: "p", text: `Payment ${data.installmentNumber} on your ${loan} with ${BRAND_NAME} is due ${longDate(data.dueDate)}. ${autopayReminderLine(data.autopay)}` },
      { kind: "p", text: "You do not need to do anything. To change or cancel autopay, use your loan's page at least 3 business days before the debit." },
      pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
    ]);
  return layout("payment-reminder", `Your ${BRAND_NAME} payment is due ${longDate(data.dueDate)}`, "Your next payment is coming up", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `This is a reminder that payment ${data.installmentNumber} on your ${loan} with ${BRAND_NAME} is due soon.` },
    {
      kind: "fields",
      rows: [
        ["Amount due", formatMoney(data.amountCents)],
        ...(data.feesCents > 0 ? [["Of which fees due, paid first", formatMoney(data.feesCents)] as [string, string]] : []),
        ["Due date", longDate(data.dueDate)],
      ],
    },
    { kind: "p", text: "You can make a payment or see your schedule on your loan's page. If you have already paid, thank you: no action is needed." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

export function lateNoticeEmail(data: NoticeData & { lateFeeCents: number | null }): RenderedEmail {
  const loan = loanName(data);
  const rows: [string, string][] = [
    ["Installment due", formatMoney(data.amountCents)],
    ["Was due on", longDate(data.dueDate)],
  ];
  if (data.lateFeeCents) rows.push(["Late fee assessed", formatMoney(data.lateFeeCents)]);
  return layout("late-notice", `Your ${BRAND_NAME} payment is past due`, "Your payment is past due", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `We have not received payment ${data.installmentNumber} on your ${loan} with ${BRAND_NAME}, and the grace period has ended.` },
    { kind: "fields", rows },
    { kind: "p", text: "Please make a payment as soon as you can from your loan's page, or reply to talk to us about it. If you have paid in the last few days, thank you: no action is needed." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
