import { and, eq, inArray } from "drizzle-orm";
import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { loanReference } from "./loan-reference.server";
import { payoffQuote, replayLedger, SERVICING_STATUS_LABELS } from "~/domain/loan-servicing";
import { addMonths } from "~/domain/truth-in-lending";
import { PAYMENT_METHOD_LABELS } from "~/domain/servicing-enums";
import { loanDocumentQuerySchema, PAYOFF_QUOTE_MAX_DAYS, type LoanDocumentQuery } from "~/domain/validation/make-payment";
import { applicationById, plain } from "~/server/applications/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { addDays, isoDay, todayUtc } from "~/domain/dates";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { renderPaidInFullLetterPdf, renderPayoffLetterPdf, renderStatementPdf, type LetterParties } from "~/server/loans/servicing-pdfs.server";
import { agreementLender } from "~/server/offers/index.server";
import { ownLedger, statementMonths, type LoanViewer } from "./borrower-loan.server";
import type { LoanLedger } from "./ledger.server";

/**
 * GET /dashboard/loans/:id/documents: the borrower's payoff quote letter, a month's
 * statement or the paid-in-full letter, rendered on request from the ledger (nothing stored), as a
 * PDF attachment with no-store. Owner only (404 otherwise); bad parameters 400; every document is
 * audited ('servicing.document').
 */

export const LOAN_DOCUMENT_MESSAGES = {
  notFound: "This loan does not exist.",
  badQuery: "Ask for kind=payoff&date=yyyy-MM-dd, kind=statement&month=yyyy-MM or kind=paid-in-full.",
  payoffRange: `The good-through date must be from today to ${PAYOFF_QUOTE_MAX_DAYS} days from today.`,
  payoffPaid: "This loan is paid in full: there is nothing to pay off.",
  statementRange: "There is no statement for that month: statements run from the loan's first month to this one.",
  notPaidInFull: "This loan is not paid in full yet.",
} as const;



async function parties(ledger: LoanLedger, db: Db, today: string): Promise<LetterParties> {
  const app = await applicationById(ledger.loan.applicationId, db);
  return {
    lender: agreementLender(),
    // The obligor as the note names them; the address is the application's.
    borrower: {
      name: ledger.loan.obligorName,
      address: app
        ? { line1: app.addressLine1, ...(app.addressLine2 ? { line2: app.addressLine2 } : {}), city: app.city, state: app.state, postalCode: app.zipCode }
        : { line1: "", city: "", state: "", postalCode: "" },
    },
    loanReference: loanReference(ledger.loan),
    issuedOn: today,
  };
}

/** The last day of 'yyyy-MM'. */
function monthEnd(month: string): string {
  return addDays(addMonths(`${month}-01`, 1), -1);
}

/** Renders the asked document; a string is a refusal's message with its status. */
export async function loanDocument(
  ledger: LoanLedger,
  query: LoanDocumentQuery,
  db: Db,
  today: string,
): Promise<{ ok: true; bytes: Buffer; fileName: string } | { ok: false; status: 400 | 404 | 409; message: string }> {
  const { loan, terms, payments, fees } = ledger;
  const ref = loanReference(loan).toLowerCase();
  if (query.kind === "payoff") {
    if (query.date < today || query.date > addDays(today, PAYOFF_QUOTE_MAX_DAYS)) return { ok: false, status: 400, message: LOAN_DOCUMENT_MESSAGES.payoffRange };
    if (loan.status === "paid_off") return { ok: false, status: 409, message: LOAN_DOCUMENT_MESSAGES.payoffPaid };
    const quote = payoffQuote(terms, payments, fees, query.date);
    const bytes = await renderPayoffLetterPdf({ ...(await parties(ledger, db, today)), quote });
    return { ok: true, bytes, fileName: `payoff-quote-${ref}-${query.date}.pdf` };
  }
  if (query.kind === "statement") {
    if (!statementMonths(loan.startDate, today).includes(query.month)) return { ok: false, status: 400, message: LOAN_DOCUMENT_MESSAGES.statementRange };
    const periodStart = `${query.month}-01` < loan.startDate ? loan.startDate : `${query.month}-01`;
    const periodEnd = monthEnd(query.month) > today ? today : monthEnd(query.month);
    const before = replayLedger(terms, payments, fees, addDays(periodStart, -1));
    const end = replayLedger(terms, payments, fees, periodEnd);
    const inPeriod = (day: string) => day >= periodStart && day <= periodEnd;
    const allocations = end.allocations.filter((a) => inPeriod(a.receivedOn));
    const details = allocations.length
      ? await db
          .select({ id: loanPayments.id, reference: loanPayments.reference, method: loanPayments.method })
          .from(loanPayments)
          .where(and(eq(loanPayments.loanId, loan.id), inArray(loanPayments.id, allocations.map((a) => a.paymentId))))
      : [];
    const byId = new Map(details.map((d) => [d.id, d]));
    const bytes = await renderStatementPdf({
      ...(await parties(ledger, db, today)),
      month: query.month,
      periodStart,
      periodEnd,
      principalStartCents: periodStart === loan.startDate ? loan.amountCents : before.principalCents,
      payments: allocations.map((a) => ({
        receivedOn: a.receivedOn,
        reference: byId.get(a.paymentId)?.reference ?? "",
        methodLabel: PAYMENT_METHOD_LABELS[byId.get(a.paymentId)?.method ?? "ach"],
        amountCents: a.amountCents,
        feesCents: a.feesCents,
        interestCents: a.interestCents,
        principalCents: a.principalCents,
        excessCents: a.excessCents,
      })),
      fees: fees.filter((f) => inPeriod(f.assessedOn)).map((f) => ({ assessedOn: f.assessedOn, label: f.installmentNumber ? `Late fee, installment ${f.installmentNumber}` : "Fee", amountCents: f.amountCents })),
      principalEndCents: end.principalCents,
      interestAccruedEndCents: end.interestAccruedCents,
      feesDueEndCents: end.feesDueCents,
      nextDue: end.nextInstallment,
      statusLabel: SERVICING_STATUS_LABELS[end.status],
    });
    return { ok: true, bytes, fileName: `statement-${ref}-${query.month}.pdf` };
  }
  if (loan.status !== "paid_off" || ledger.state.status !== "paid_in_full") return { ok: false, status: 404, message: LOAN_DOCUMENT_MESSAGES.notPaidInFull };
  const allocations = ledger.state.allocations;
  const last = allocations.findLast((a) => a.principalAfterCents === 0 && a.principalCents > 0) ?? allocations.at(-1);
  const bytes = await renderPaidInFullLetterPdf({
    ...(await parties(ledger, db, today)),
    amountCents: loan.amountCents,
    startDate: loan.startDate,
    paidOffOn: last?.receivedOn ?? (loan.paidOffAt ? isoDay(loan.paidOffAt) : today),
    totalPaidCents: allocations.reduce((s, a) => s + a.feesCents + a.interestCents + a.principalCents, 0),
  });
  return { ok: true, bytes, fileName: `paid-in-full-${ref}.pdf` };
}

/** The route's whole answer. */
export async function serveLoanDocument(
  loanId: string | undefined,
  url: URL,
  { actor: viewer, request }: Caller<LoanViewer>,
  options: { db?: Db; method?: string; today?: string } = {},
): Promise<Response> {
  const db = options.db ?? getDb();
  const today = options.today ?? todayUtc();
  const ledger = await ownLedger(loanId, viewer, db, today);
  if (!ledger) return plain(404, "Not Found");
  const params: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in params)) params[key] = value;
  const parsed = loanDocumentQuerySchema.safeParse(params);
  if (!parsed.success) return plain(400, parsed.error.issues[0]?.message && params.kind && ["payoff", "statement"].includes(params.kind) ? parsed.error.issues[0].message : LOAN_DOCUMENT_MESSAGES.badQuery);
  const doc = await loanDocument(ledger, parsed.data, db, today);
  if (!doc.ok) return plain(doc.status, doc.message);
  const q = parsed.data;
  await writeAudit(db, {
    actor: viewer,
    action: "servicing.document",
    table: "approved_loans",
    recordId: ledger.loan.id,
    details: { kind: q.kind, ...(q.kind === "payoff" ? { date: q.date } : q.kind === "statement" ? { month: q.month } : {}), side: "borrower", bytes: doc.bytes.length },
    request,
  });
  const headers = privateDownloadHeaders(doc.fileName, doc.bytes.length);
  if (options.method === "HEAD") return new Response(null, { status: 200, headers });
  return new Response(new Uint8Array(doc.bytes), { status: 200, headers });
}
