import { APPROVED_LOAN_STATUS_LABELS } from "~/domain/labels";
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { errorToast, type Toast } from "~/domain/action-result";
import type { z } from "~/domain/validation/zod";
import {
  acceptIdDocumentSchema,
  cancelLoanSchema,
  fundLoanSchema,
  LOAN_FUNDING_FAILED,
  LOAN_FUNDING_INTENTS,
  LOAN_FUNDING_MESSAGES,
  LOAN_FUNDING_TOASTS,
  recordFeeCollectedSchema,
  returnFundingSchema,
  settleFundingSchema,
  type LoanFundingIntent,
} from "~/domain/validation/loan-funding";
import { loanTypeLabel } from "~/domain/labels";
import { formatMoneyDecimal, formatRate } from "~/domain/money";
import { daysBetween, ledgerLines, replayLedger, SERVICING_STATUS_LABELS, type AssessedFee, type PostedPayment, type ServicingStatus } from "~/domain/loan-servicing";
import { LOAN_PAYMENT_STATUS_LABELS, PAYMENT_METHOD_LABELS } from "~/domain/servicing-enums";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  LOAN_PAYMENT_FAILED,
  LOAN_PAYMENT_INTENTS,
  LOAN_PAYMENT_MESSAGES,
  LOAN_PAYMENT_TOASTS,
  recordPaymentSchema,
  reversePaymentSchema,
  type LoanPaymentActionData,
  type LoanPaymentIntent,
} from "~/domain/validation/loan-payments";
import { withoutControlCharacters } from "~/domain/validation/text-rules";
import { LOAN_LIST_FILTERS, type LoanListFilter, type StaffLedgerPayment, type StaffLoanList, type StaffLoanPage, type StaffLoanSummary } from "~/domain/views/staff-loans";
import { uuidRange } from "~/server/staff/index.server";
import { keysetPage, pageWindow } from "~/server/platform/db/paging.server";
import { parsePageRequest, type PageCursors, type PageRequest } from "~/domain/paging";
import { keptCountBetween, keptCounts } from "~/server/platform/db/row-counts.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { todayUtc } from "~/domain/dates";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { approvedLoans, loanFees, loanPayments } from "~/server/platform/db/schema.server";
import { peopleByIds, personSearchReads } from "~/server/accounts/index.server";
import { applicationsByIds } from "~/server/applications/index.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { loanReference } from "./loan-reference.server";
import { loadLedger, termsOf } from "./ledger.server";
import { pendingDebitWarning, recordPayment, reversePayment } from "./payments.server";
import { currentPaymentAccount } from "./payment-accounts.server";
import { acceptLoanIdDocument, cancelFunding, cancelLoan, fundLoan, recordFeeCollected, releaseFunds, returnFunding, settleFunding } from "./funding.server";
import { staffLoanFunding } from "./funding-views.server";
import { accountValidationPanel, recordValidationIntent } from "./account-validation-panel.server";
import { loanAccountRestrictions, openLoanFlags, resolveLoanFlag } from "./ach-returns-panel.server";
import { achActionSchema } from "~/domain/validation/ach";
import { CLEAR_RESTRICTION_INTENT, clearRestrictionSchema } from "~/domain/validation/account-restriction";
import { clearAccountRestriction } from "./account-restrictions.server";
import { RECORD_VALIDATION_INTENT, type AccountValidationActionData } from "~/domain/validation/account-validation";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";
import { delinquencyBucket, delinquencyBucketLabel, type DelinquencyBucket } from "~/domain/delinquency";
import { readBucketParam } from "~/domain/delinquency-ranges";
import { bucketWhere, loanBucketCounts } from "./loan-list-buckets.server";

/**
 * The staff side of servicing: the loan list (/admin/loans: filters Current, Late, Paid in
 * Full and a search, paginated in SQL on the stored status and next due date), one loan's page
 * (/admin/loans/:id: terms, Payment Schedule, ledger), its actions (Record Payment, Reverse Payment,
 * through payments.server.ts under the loan's row lock) and the Export Loan Tape CSV. Every read is
 * audited (loans.list, loan.view, loan_tape.export).
 */

export const LOANS_PAGE_SIZE = 25;
export const LOAN_SEARCH_MAX = 100;
/** The largest form the loan page reads: a 500-character reason in 4-byte UTF-8, form-encoded, and the rest. */
export const MAX_LOAN_PAYMENT_FORM_BYTES = 16 * 1024;


export function parseLoanId(value: string | undefined): string | null {
  return value && UUID_PATTERN.test(value) ? value.toLowerCase() : null;
}

export type LoanListQuery = PageRequest & { filter: LoanListFilter; q: string; bucket?: DelinquencyBucket | null; bucketNotice?: string | null };

/**
 * ?status=&bucket=&q=&page= of /admin/loans, validated (an unknown status is All; an unknown bucket is
 * every bucket, with a notice saying so). A bucket narrows the loans not paid off by days past due, so
 * it replaces the status filter rather than combining with it.
 */
export function parseLoansUrl(url: URL): LoanListQuery {
  const status = url.searchParams.get("status");
  const { bucket, notice } = readBucketParam(url.searchParams.get("bucket"));
  return {
    // Present only when asked for, so a URL without ?bucket= reads as it always did.
    ...(bucket ? { bucket } : {}),
    ...(notice ? { bucketNotice: notice } : {}),
    filter: bucket ? "all" : (LOAN_LIST_FILTERS as readonly string[]).includes(status ?? "") ? (status as LoanListFilter) : "all",
    q: withoutControlCharacters(url.searchParams.get("q") ?? "").trim().slice(0, LOAN_SEARCH_MAX),
    ...parsePageRequest(url.searchParams),
  };
}

/** What lists call a loan: Awaiting Funding or Cancelled before it is serviced, else its servicing status. */
function listStatusLabel(stored: string, status: ServicingStatus): string {
  return stored === "awaiting_funding" || stored === "cancelled" ? APPROVED_LOAN_STATUS_LABELS[stored] : SERVICING_STATUS_LABELS[status];
}

/** The servicing status from the stored summary: Paid Off, or Late once the first unpaid installment's day has passed. */
function storedStatus(status: string, nextDueDate: string | null, today: string): ServicingStatus {
  if (status === "paid_off") return "paid_in_full";
  if (status === "charged_off" || status === "settled") return status;
  return nextDueDate !== null && nextDueDate < today ? "late" : "current";
}

/** The loans of a filter; `t` is approved_loans or the search's matches (same columns, another name). */
function filterWhere(filter: LoanListFilter, today: string, t: { status: AnyPgColumn; nextDueDate: AnyPgColumn } = approvedLoans): SQL | undefined {
  switch (filter) {
    case "current":
      return and(sql`${t.status} <> 'paid_off'`, or(isNull(t.nextDueDate), gte(t.nextDueDate, today)));
    case "late":
      return and(sql`${t.status} <> 'paid_off'`, lt(t.nextDueDate, today));
    case "paid_in_full":
      return eq(t.status, "paid_off");
    default:
      return undefined;
  }
}

/**
 * The loans a search matches, as one union of index range reads (decision 0051; the staff search's
 * rules, decision 0043): the borrower's profile by the start of the whole name, or for one word also of
 * the last name and of the e-mail address; an entry with "@" by the start of the address (or, after a
 * leading "@", of the domain); and a reference ("LN-1A2B3C4D", or part of a loan id) by the uuid range
 * of the offer id or the loan id it starts. Each read is a range of one btree, never a LIKE: the cost is
 * the number of matches, not the number of loans or borrowers.
 */
/** What a match carries: the filter's and the list order's columns, so matches are filtered and sorted alone. */
const MATCH_COLUMNS = sql.raw(`l."id", l."status", l."next_due_date", l."approval_date"`);
const matchedLoans = alias(approvedLoans, "m");

export function searchLoanIds(q: string): SQL | null {
  const profileReads = personSearchReads(q);
  const reads: SQL[] = [];
  // Each matched borrower's loans by approved_loans' user_id index (offset 0 keeps the lateral read
  // per borrower: joined whole, the planner guessed the union's size and scanned every loan).
  if (profileReads.length > 0) {
    reads.push(sql`select bl.* from (${sql.join(profileReads, sql` union `)}) b cross join lateral (select ${MATCH_COLUMNS} from "approved_loans" l where l."user_id" = b."id" offset 0) bl`);
  }
  // A reference: "LN-1A2B3C4D" (or part of it), or a loan id; the agreement prints the offer id's start.
  const ref = q.trim().replace(/^ln-?/i, "");
  const hex = ref.replace(/-/g, "");
  if (/^[0-9a-f-]{4,36}$/i.test(ref) && hex.length >= 4 && hex.length <= 32 && /^[0-9a-f]+$/i.test(hex)) {
    const { min, max } = uuidRange(hex);
    reads.push(sql`select ${MATCH_COLUMNS} from "approved_loans" l where l."offer_id" >= ${min}::uuid and l."offer_id" <= ${max}::uuid`);
    reads.push(sql`select ${MATCH_COLUMNS} from "approved_loans" l where l."id" >= ${min}::uuid and l."id" <= ${max}::uuid`);
  }
  return reads.length > 0 ? sql.join(reads, sql` union `) : null;
}

const LIST_COLUMNS = {
  id: approvedLoans.id,
  offerId: approvedLoans.offerId,
  userId: approvedLoans.userId,
  applicationId: approvedLoans.applicationId,
  status: approvedLoans.status,
  amountCents: approvedLoans.amountCents,
  balanceCents: approvedLoans.balanceCents,
  nextDueDate: approvedLoans.nextDueDate,
};

type Borrower = { name: string; email: string; loanType: string };

/**
 * The borrowers of these loans: the profile's name (else the name on the application), the sign-in
 * e-mail and the loan type, two batched reads for all of them. A loan whose application or account is
 * gone has none (it is left out, as the joins did).
 */
async function borrowersOf(loans: readonly { id: string; userId: string; applicationId: string }[], db: Db): Promise<Map<string, Borrower>> {
  const [apps, people] = await Promise.all([applicationsByIds(loans.map((l) => l.applicationId), db), peopleByIds(loans.map((l) => l.userId), db)]);
  const out = new Map<string, Borrower>();
  for (const loan of loans) {
    const app = apps.get(loan.applicationId);
    const person = people.get(loan.userId);
    if (app && person) out.set(loan.id, { name: person.profileName?.trim() || `${app.firstName} ${app.lastName}`, email: person.email, loanType: app.loanType });
  }
  return out;
}

const DUE = "approved_loans:due:";
/** After every due date and 'none' (open loans without one). */
const AFTER_ALL_DUE = `${DUE}~`;

/** Loans in the filter, from row_counts: open loans are kept per next due date, so Late is a sum over past dates. */
async function countLoans(filter: LoanListFilter, today: string, db: Db): Promise<number> {
  switch (filter) {
    case "paid_in_full":
      return (await keptCounts(db, ["approved_loans:paid_off"] as const))["approved_loans:paid_off"];
    case "late":
      return keptCountBetween(db, DUE, `${DUE}${today}`);
    case "current":
      return keptCountBetween(db, `${DUE}${today}`, AFTER_ALL_DUE);
    default:
      return (await keptCounts(db, ["approved_loans:paid_off"] as const))["approved_loans:paid_off"] + (await keptCountBetween(db, DUE, AFTER_ALL_DUE));
  }
}

/**
 * One page of loans, the late first (next due date ascending, then id so pages never overlap),
 * filtered by servicing status and a search by the start of the borrower's name or e-mail or of the
 * loan reference (searchLoanIds). Audited ('loans.list').
 */
export async function listLoans(query: LoanListQuery, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<StaffLoanList> {
  const q = query.q.trim().slice(0, LOAN_SEARCH_MAX);
  const order = [sql`${approvedLoans.nextDueDate} asc nulls last`, desc(approvedLoans.approvalDate), asc(approvedLoans.id)];
  const pageOf = (ids: string[]) => (ids.length === 0 ? Promise.resolve([]) : db.select(LIST_COLUMNS).from(approvedLoans).where(inArray(approvedLoans.id, ids)).orderBy(...order));
  let total: number;
  let rows: Awaited<ReturnType<typeof pageOf>>;
  let page: number;
  let pageCount: number;
  let cursors: PageCursors | null = null;
  // Loans per days-past-due bucket, shown with the bucket filter (kept counts: a read of due-day keys).
  const bucketCounts = await loanBucketCounts(db, today);
  if (q) {
    // A search: the loans it matches, found by index ranges (searchLoanIds) with the columns the filter
    // and the order need, materialized once, are counted and sorted alone (never every loan tested
    // against them); then only the page's loans are joined with their borrowers.
    const ids = searchLoanIds(q);
    const m = matchedLoans;
    const filter = and(filterWhere(query.filter, today, m), bucketWhere(query.bucket ?? null, today, m)) ?? sql`true`;
    const matched = (select: SQL, tail: SQL) =>
      sql`with m as materialized (${ids ?? sql`select ${MATCH_COLUMNS} from "approved_loans" l where false`})
          select ${select} from m where ${filter} ${tail}`;
    const counted = (await db.execute(matched(sql`count(*)::int as "n"`, sql``))) as unknown as { rows: { n: number }[] };
    total = Number(counted.rows[0]?.n ?? 0);
    const shown = pageWindow(total, query.page ?? 1, LOANS_PAGE_SIZE);
    ({ page, pageCount } = shown);
    const orderSql = sql.join([sql`${m.nextDueDate} asc nulls last`, desc(m.approvalDate), asc(m.id)], sql`, `);
    const pageIds = (await db.execute(
      matched(sql`${m.id} as "id"`, sql`order by ${orderSql} limit ${shown.limit} offset ${shown.offset}`),
    )) as unknown as { rows: { id: string }[] };
    rows = await pageOf(pageIds.rows.map((r) => r.id));
  } else {
    // Without a search: the count kept by triggers (drizzle/0012), and the page's ids from
    // approved_loans_list_order_idx alone; only those loans are joined with their borrowers.
    total = query.bucket ? bucketCounts[query.bucket] : await countLoans(query.filter, today, db);
    // The page's ids from approved_loans_list_order_idx alone, by keyset (decision 0050).
    const shown = await keysetPage(
      db,
      {
        scope: query.bucket ? `loans:bucket:${query.bucket}` : `loans:${query.filter}`,
        table: approvedLoans,
        id: approvedLoans.id,
        keys: [
          { column: approvedLoans.nextDueDate, order: "asc", type: "date", nullable: true },
          { column: approvedLoans.approvalDate, order: "desc", type: "timestamptz" },
          { column: approvedLoans.id, order: "asc", type: "uuid" },
        ],
        where: and(filterWhere(query.filter, today), bucketWhere(query.bucket ?? null, today)),
      },
      query,
      total,
      LOANS_PAGE_SIZE,
    );
    ({ page, pageCount, cursors } = shown);
    // The page's loans by primary key, then their borrowers by key (a join could hash a whole table for 25 rows).
    rows = await pageOf(shown.ids);
  }
  const borrowers = await borrowersOf(rows, db);
  const loans = rows.flatMap((r): StaffLoanSummary[] => {
    const borrower = borrowers.get(r.id);
    if (!borrower) return [];
    const status = storedStatus(r.status, r.nextDueDate, today);
    return [{
      id: r.id,
      reference: loanReference(r),
      borrowerName: borrower.name,
      borrowerEmail: borrower.email,
      loanType: loanTypeLabel(borrower.loanType),
      amountCents: r.amountCents,
      balanceCents: r.balanceCents,
      nextDueDate: status === "paid_in_full" ? null : r.nextDueDate,
      daysPastDue: status === "late" && r.nextDueDate ? daysBetween(r.nextDueDate, today) : 0,
      bucket: status === "paid_in_full" || !r.nextDueDate || r.status === "cancelled" ? null : delinquencyBucket(daysBetween(r.nextDueDate, today)),
      bucketLabel: status === "paid_in_full" || !r.nextDueDate || r.status === "cancelled" ? null : delinquencyBucketLabel(delinquencyBucket(daysBetween(r.nextDueDate, today))),
      status,
      statusLabel: listStatusLabel(r.status, status),
    }];
  });
  await writeAudit(db, { actor, action: "loans.list", table: "approved_loans", details: { filter: query.filter, bucket: query.bucket ?? null, q, page, count: loans.length, total }, request });
  return { filter: query.filter, q, page, pageCount, pageSize: LOANS_PAGE_SIZE, cursors, total, loans, bucket: query.bucket ?? null, bucketNotice: query.bucketNotice ?? null, bucketCounts };
}

/** One loan's page for staff, or null when there is no such loan. Audited ('loan.view'). */
export async function loadStaffLoan(loanId: string, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<StaffLoanPage | null> {
  const id = parseLoanId(loanId);
  if (!id) return null;
  const ledger = await loadLedger(id, db, today);
  if (!ledger) return null;
  const { loan, state } = ledger;
  const owner = (await borrowersOf([loan], db)).get(loan.id);
  const payments = await db.select().from(loanPayments).where(eq(loanPayments.loanId, id)).orderBy(asc(sql`coalesce(${loanPayments.receivedOn}, ${loanPayments.createdAt}::date)`), asc(loanPayments.createdAt), asc(loanPayments.id));
  const fees = await db.select().from(loanFees).where(and(eq(loanFees.loanId, id), isNull(loanFees.waivedAt))).orderBy(asc(loanFees.assessedOn), asc(loanFees.id));
  const allocations = new Map(state.allocations.map((a) => [a.paymentId, a]));
  const paymentAccount = await currentPaymentAccount(loan, db);
  const funding = await staffLoanFunding(loan, actor.id, db, today);
  const accountValidation = await accountValidationPanel(loan, db);
  const [flags, restrictions] = [await openLoanFlags(db, id), await loanAccountRestrictions(id, db)];
  await writeAudit(db, { actor, action: "loan.view", table: "approved_loans", recordId: id, details: { status: state.status, payments: payments.length, fees: fees.length }, request });
  const staffPayments = payments.map((p): StaffLedgerPayment => {
    const a = p.status === "posted" ? allocations.get(p.id) : undefined;
    return {
      id: p.id,
      status: p.status,
      statusLabel: LOAN_PAYMENT_STATUS_LABELS[p.status],
      method: p.method,
      methodLabel: PAYMENT_METHOD_LABELS[p.method],
      source: p.source,
      reference: p.reference,
      amountCents: p.amountCents,
      receivedOn: p.receivedOn,
      createdAt: p.createdAt.toISOString(),
      reversalReason: p.reversalReason,
      returnCode: p.returnCode,
      cancelReason: p.cancelReason,
      allocation: a
        ? { feesCents: a.feesCents, interestCents: a.interestCents, principalCents: a.principalCents, excessCents: a.excessCents, principalAfterCents: a.principalAfterCents, recovery: a.recovery }
        : null,
    };
  });
  const status: ServicingStatus = loan.status === "paid_off" ? "paid_in_full" : state.status;
  return {
    today,
    loan: {
      id,
      reference: loanReference(loan),
      applicationId: loan.applicationId,
      borrowerName: owner?.name ?? "",
      borrowerEmail: owner?.email ?? "",
      loanType: owner ? loanTypeLabel(owner.loanType) : "",
      amountCents: loan.amountCents,
      noteRatePercent: formatRate(loan.noteRateMilli),
      termMonths: loan.termMonths,
      paymentCents: loan.paymentCents,
      startDate: loan.startDate,
      maturityDate: loan.maturityDate,
      status,
      statusLabel: SERVICING_STATUS_LABELS[status],
      paidOffAt: loan.paidOffAt?.toISOString() ?? null,
    },
    summary: {
      principalCents: state.principalCents,
      interestAccruedCents: state.interestAccruedCents,
      feesDueCents: state.feesDueCents,
      payoffTodayCents: state.principalCents + state.interestAccruedCents + state.feesDueCents,
      nextInstallment: status === "paid_in_full" ? null : state.nextInstallment,
      daysPastDue: status === "paid_in_full" ? 0 : state.daysPastDue,
    },
    installments: state.installments,
    payments: staffPayments,
    ledger: ledgerLines(termsOf(loan), state, fees, staffPayments, (p) => p.receivedOn ?? p.createdAt.slice(0, 10)),
    fees: fees.map((f) => ({ id: f.id, kind: f.kind, installmentNumber: f.installmentNumber, amountCents: f.amountCents, assessedOn: f.assessedOn })),
    pendingDebit: (() => {
      const p = payments.find((row) => row.status === "pending" && row.source === "borrower");
      return p ? { amountCents: p.amountCents, sent: p.achBatchId !== null, warning: pendingDebitWarning(p.amountCents, p.achBatchId !== null) } : null;
    })(),
    refundsDue: payments
      .filter((p) => p.status === "refund_due")
      .map((p) => ({ paymentId: p.id, amountCents: p.amountCents, receivedOn: p.receivedOn!, reference: p.reference })),
    paymentAccount: paymentAccount ? { label: paymentAccount.label, holder: paymentAccount.holder, bankName: paymentAccount.bankName } : null,
    funding,
    accountValidation,
    flags,
    restrictions,
  };
}

export type LoanPaymentAnswer = ServiceAnswer<LoanPaymentActionData>;

function refusal(status: number, intent: LoanPaymentIntent | null, message: string, fieldErrors?: Record<string, string[]>): LoanPaymentAnswer {
  const title = intent ? LOAN_PAYMENT_FAILED[intent] : "The request was refused";
  return { status, body: { ok: false, intent, toast: errorToast(title, message), at: Date.now(), ...(fieldErrors ? { fieldErrors } : {}) } };
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

/**
 * POST /admin/loans/:id after the route's guards (same origin, a verified admin): reads the
 * size-limited form (413 when too large), validates it with the dialog's schema (400 naming the
 * field), then records or reverses through payments.server.ts; its refusals (404, 409 a duplicate
 * reference or a payment no longer posted, 400 a date) become error toasts.
 */
export async function loanPageAction(request: Request, urlId: string | undefined, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<ServiceAnswer<LoanPaymentActionData | AccountValidationActionData>> {
  const read = await readActionForm(request, (message): LoanPaymentActionData => ({ ok: false, intent: null, toast: errorToast("The request was refused", message), at: Date.now() }), {
    limitBytes: MAX_LOAN_PAYMENT_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const form = read.form;
  const intent = text(form, "intent");
  if ((LOAN_FUNDING_INTENTS as readonly string[]).includes(intent ?? "")) return fundingAction(form, intent as LoanFundingIntent, urlId, caller, db, today);
  if (intent === RECORD_VALIDATION_INTENT) {
    const loanId = parseLoanId(urlId);
    if (!loanId) return refusal(404, null, LOAN_PAYMENT_MESSAGES.loanNotFound);
    return recordValidationIntent(loanId, { intent, bankAccountId: text(form, "bankAccountId"), method: text(form, "method"), reference: text(form, "reference") }, caller, db);
  }
  if (intent === "resolve-flag") {
    const loanId = parseLoanId(urlId);
    if (!loanId) return refusal(404, null, LOAN_PAYMENT_MESSAGES.loanNotFound);
    const parsed = achActionSchema.safeParse({ intent, flagId: text(form, "flagId"), note: text(form, "note") });
    if (!parsed.success || parsed.data.intent !== "resolve-flag") return refusal(400, null, parsed.error?.issues[0]?.message ?? LOAN_PAYMENT_MESSAGES.intent);
    try {
      await resolveLoanFlag(parsed.data.flagId, parsed.data.note, caller, db, loanId);
    } catch (error) {
      if (error instanceof AppError) return refusal(error.status, null, error.message);
      throw error;
    }
    return { status: 200, body: { ok: true, intent: null, toast: { type: "success", title: "Flag Resolved", description: "The note is kept with the flag." }, at: Date.now() } };
  }
  if (intent === CLEAR_RESTRICTION_INTENT) {
    const loanId = parseLoanId(urlId);
    if (!loanId) return refusal(404, null, LOAN_PAYMENT_MESSAGES.loanNotFound);
    const parsed = clearRestrictionSchema.safeParse({ intent, bankAccountId: text(form, "bankAccountId"), reason: text(form, "reason") });
    if (!parsed.success) {
      const errors = issuesToFieldErrors(parsed.error);
      return refusal(errors.bankAccountId ? 404 : 400, null, parsed.error.issues[0]?.message ?? LOAN_PAYMENT_MESSAGES.intent, errors);
    }
    try {
      await clearAccountRestriction(loanId, parsed.data.bankAccountId, parsed.data.reason, caller, db);
    } catch (error) {
      if (error instanceof AppError) return refusal(error.status, null, error.message);
      throw error;
    }
    return { status: 200, body: { ok: true, intent: null, toast: { type: "success", title: "Restriction Cleared", description: "The account can be debited again; the reason is kept with the restriction." }, at: Date.now() } };
  }
  if (!(LOAN_PAYMENT_INTENTS as readonly string[]).includes(intent ?? "")) return refusal(400, null, LOAN_PAYMENT_MESSAGES.intent);
  const which = intent as LoanPaymentIntent;
  const loanId = parseLoanId(urlId);
  if (!loanId) return refusal(404, which, LOAN_PAYMENT_MESSAGES.loanNotFound);
  try {
    if (which === "record-payment") {
      const parsed = recordPaymentSchema(today).safeParse({
        intent: which,
        amount: text(form, "amount"),
        receivedOn: text(form, "receivedOn"),
        method: text(form, "method"),
        reference: text(form, "reference"),
        confirmPendingDebit: text(form, "confirmPendingDebit"),
        idempotencyKey: text(form, "idempotencyKey"),
      });
      if (!parsed.success) return refusal(400, which, parsed.error.issues[0]?.message ?? LOAN_PAYMENT_MESSAGES.amount, issuesToFieldErrors(parsed.error));
      const { amount, receivedOn, method, reference, confirmPendingDebit, idempotencyKey } = parsed.data;
      // A second post of the same form (its idempotency key) gets the first's answer: the same success toast.
      const result = await recordPayment(loanId, { amountCents: amount, receivedOn, method, reference, confirmPendingDebit, idempotencyKey }, caller, db, today);
      return { status: 200, body: { ok: true, intent: which, toast: result.paidInFull ? LOAN_PAYMENT_TOASTS.paidInFull : LOAN_PAYMENT_TOASTS.recorded, at: Date.now() } };
    }
    const parsed = reversePaymentSchema.safeParse({ intent: which, paymentId: text(form, "paymentId"), reason: text(form, "reason") });
    if (!parsed.success) {
      const errors = issuesToFieldErrors(parsed.error);
      return refusal(errors.paymentId ? 404 : 400, which, parsed.error.issues[0]?.message ?? LOAN_PAYMENT_MESSAGES.reasonRequired, errors);
    }
    // The payment must be one of this loan's: another loan's id is as unknown here as a made-up one.
    const [belongs] = await db
      .select({ id: loanPayments.id })
      .from(loanPayments)
      .where(and(eq(loanPayments.id, parsed.data.paymentId.toLowerCase()), eq(loanPayments.loanId, loanId)))
      .limit(1);
    if (!belongs) return refusal(404, which, LOAN_PAYMENT_MESSAGES.paymentId);
    await reversePayment(belongs.id, parsed.data.reason, caller, db, today);
    return { status: 200, body: { ok: true, intent: which, toast: LOAN_PAYMENT_TOASTS.reversed, at: Date.now() } };
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: which ? LOAN_PAYMENT_FAILED[which] : "The request was refused", stamped: true }, { intent: which });
    logFailure("admin", "a loan payment action failed", error, { admin: caller.actor.id, loanId, intent: which });
    return refusal(500, which, "Something went wrong on our side. Please try again.");
  }
}

function fundingRefusal(status: number, intent: LoanFundingIntent, message: string, fieldErrors?: Record<string, string[]>): LoanPaymentAnswer {
  return { status, body: { ok: false, intent, toast: errorToast(LOAN_FUNDING_FAILED[intent], message), at: Date.now(), ...(fieldErrors ? { fieldErrors } : {}) } };
}

/**
 * The funding intents of POST /admin/loans/:id (the route's guard: servicing.manage): each form
 * validated by its schema (400 naming the field), then funding.server.ts, whose refusals (404, 403
 * the preparer releasing, 409 a checklist not met or changed, a credit in the wrong state, a loan
 * not cancellable yet) become error toasts.
 */
async function fundingAction(form: FormData, intent: LoanFundingIntent, urlId: string | undefined, caller: Caller, db: Db, today: string): Promise<LoanPaymentAnswer> {
  const loanId = parseLoanId(urlId);
  if (!loanId) return fundingRefusal(404, intent, LOAN_PAYMENT_MESSAGES.loanNotFound);
  const ok = (toast: Toast): LoanPaymentAnswer => ({ status: 200, body: { ok: true, intent, toast, at: Date.now() } });
  const invalid = (error: z.ZodError) => fundingRefusal(400, intent, error.issues[0]?.message ?? "Check the form and try again.", issuesToFieldErrors(error));
  const fields = (...names: string[]) => Object.fromEntries([["intent", intent], ...names.map((n) => [n, text(form, n)])]);
  try {
    switch (intent) {
      case "fund-loan": {
        const parsed = fundLoanSchema.safeParse(fields("fingerprint"));
        if (!parsed.success) return fundingRefusal(409, intent, LOAN_FUNDING_MESSAGES.fingerprint);
        const result = await fundLoan(loanId, parsed.data, caller, db);
        return ok(result.status === "prepared" ? LOAN_FUNDING_TOASTS.prepared : LOAN_FUNDING_TOASTS.released);
      }
      case "release-funds":
        await releaseFunds(loanId, caller, db);
        return ok(LOAN_FUNDING_TOASTS.releasedByOther);
      case "cancel-funding":
        await cancelFunding(loanId, caller, db);
        return ok(LOAN_FUNDING_TOASTS.fundingCancelled);
      case "settle-funding": {
        const parsed = settleFundingSchema(today).safeParse(fields("settledOn"));
        if (!parsed.success) return invalid(parsed.error);
        await settleFunding(loanId, parsed.data.settledOn, caller, db, today);
        return ok(LOAN_FUNDING_TOASTS.settled);
      }
      case "return-funding": {
        const parsed = returnFundingSchema(today).safeParse(fields("returnCode", "returnedOn"));
        if (!parsed.success) return invalid(parsed.error);
        await returnFunding(loanId, parsed.data, caller, db, today);
        return ok(LOAN_FUNDING_TOASTS.returned);
      }
      case "cancel-loan": {
        const parsed = cancelLoanSchema.safeParse(fields("reason"));
        if (!parsed.success) return invalid(parsed.error);
        await cancelLoan(loanId, parsed.data.reason, caller, db, today);
        return ok(LOAN_FUNDING_TOASTS.loanCancelled);
      }
      case "record-fee-collected": {
        const parsed = recordFeeCollectedSchema.safeParse(fields("reference"));
        if (!parsed.success) return invalid(parsed.error);
        await recordFeeCollected(loanId, parsed.data.reference, caller, db);
        return ok(LOAN_FUNDING_TOASTS.feeCollected);
      }
      case "accept-id-document": {
        const parsed = acceptIdDocumentSchema.safeParse(fields("documentId"));
        if (!parsed.success) return fundingRefusal(404, intent, LOAN_FUNDING_MESSAGES.documentId);
        await acceptLoanIdDocument(loanId, parsed.data.documentId.toLowerCase(), caller, db);
        return ok(LOAN_FUNDING_TOASTS.idAccepted);
      }
    }
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: LOAN_FUNDING_FAILED[intent], stamped: true }, { intent });
    logFailure("admin", "a loan funding action failed", error, { admin: caller.actor.id, loanId, intent });
    return fundingRefusal(500, intent, "Something went wrong on our side. Please try again.");
  }
}

// ---------------------------------------------------------------------------------------------
// Export Loan Tape
// ---------------------------------------------------------------------------------------------

export const LOAN_TAPE_COLUMNS = [
  "Reference",
  "Loan ID",
  // The obligor as the note names them (fixed at signing), then the name the account goes by today.
  "Borrower",
  "Contact Name",
  "Loan Type",
  "Amount",
  "Note Rate (%)",
  "Term (Months)",
  "Start Date",
  "Maturity Date",
  "Payment",
  "Principal Balance",
  "Status",
  "Next Due",
  "Days Past Due",
  // Charge-off, recovery and settlement: the data of a 1099-C (the amount forgiven and its day).
  "Charged Off On",
  "Amount Charged Off",
  "Recoveries",
  "Settled On",
  "Amount Forgiven",
] as const;


/**
 * One CSV cell, safe to open in a spreadsheet: text starting with = + - @ (or a tab or carriage
 * return) gets a leading apostrophe so it is never taken for a formula, and every cell is quoted
 * with its quotes doubled (RFC 4180).
 */
export function csvCell(value: string | number | null): string {
  let s = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function csvLine(cells: readonly (string | number | null)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * Every loan's terms, principal balance, servicing status, next due day and days past due, each
 * replayed from its ledger (two queries for all payments and fees, grouped per loan). Audited
 * ('loan_tape.export' with the row count).
 */
export async function exportLoanTape({ actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<{ csv: string; rows: number; fileName: string }> {
  const allLoans = await db.select().from(approvedLoans).orderBy(asc(approvedLoans.approvalDate), asc(approvedLoans.id));
  const borrowers = await borrowersOf(allLoans, db);
  // A loan whose application is gone is left out, as the join did (its account cannot go: the loan restricts it).
  const loans = allLoans.flatMap((loan) => {
    const borrower = borrowers.get(loan.id);
    return borrower ? [{ loan, borrower }] : [];
  });
  const ids = loans.map((l) => l.loan.id);
  const paymentsByLoan = new Map<string, PostedPayment[]>();
  const feesByLoan = new Map<string, AssessedFee[]>();
  if (ids.length > 0) {
    const payments = await db
      .select({ loanId: loanPayments.loanId, id: loanPayments.id, receivedOn: loanPayments.receivedOn, amountCents: loanPayments.amountCents, recovery: loanPayments.recovery })
      .from(loanPayments)
      .where(and(eq(loanPayments.status, "posted"), inArray(loanPayments.loanId, ids)))
      .orderBy(asc(loanPayments.receivedOn), asc(loanPayments.createdAt), asc(loanPayments.id));
    for (const p of payments) {
      const list = paymentsByLoan.get(p.loanId) ?? [];
      list.push({ id: p.id, receivedOn: p.receivedOn!, amountCents: p.amountCents, recovery: p.recovery });
      paymentsByLoan.set(p.loanId, list);
    }
    const fees = await db
      .select({ loanId: loanFees.loanId, id: loanFees.id, assessedOn: loanFees.assessedOn, amountCents: loanFees.amountCents, installmentNumber: loanFees.installmentNumber })
      .from(loanFees)
      .where(and(inArray(loanFees.loanId, ids), isNull(loanFees.waivedAt)));
    for (const f of fees) {
      const list = feesByLoan.get(f.loanId) ?? [];
      list.push({ id: f.id, assessedOn: f.assessedOn, amountCents: f.amountCents, installmentNumber: f.installmentNumber });
      feesByLoan.set(f.loanId, list);
    }
  }
  let csv = csvLine(LOAN_TAPE_COLUMNS);
  for (const row of loans) {
    const { loan } = row;
    const state = replayLedger(termsOf(loan), paymentsByLoan.get(loan.id) ?? [], feesByLoan.get(loan.id) ?? [], today);
    const status: ServicingStatus = loan.status === "paid_off" ? "paid_in_full" : state.status;
    csv += csvLine([
      loanReference(loan),
      loan.id,
      loan.obligorName,
      row.borrower.name,
      loanTypeLabel(row.borrower.loanType),
      formatMoneyDecimal(loan.amountCents),
      formatRate(loan.noteRateMilli),
      loan.termMonths,
      loan.startDate,
      loan.maturityDate,
      formatMoneyDecimal(loan.paymentCents),
      formatMoneyDecimal(state.principalCents),
      listStatusLabel(loan.status, status),
      status === "paid_in_full" ? null : (state.nextInstallment?.dueDate ?? null),
      status === "paid_in_full" ? 0 : state.daysPastDue,
      loan.chargedOffOn,
      loan.chargedOffCents === null ? null : formatMoneyDecimal(loan.chargedOffCents),
      loan.chargedOffOn ? formatMoneyDecimal(state.recoveredCents) : null,
      loan.settledOn,
      loan.forgivenCents === null ? null : formatMoneyDecimal(loan.forgivenCents),
    ]);
  }
  await writeAudit(db, { actor, action: "loan_tape.export", table: "approved_loans", details: { rows: loans.length, asOf: today }, request });
  return { csv, rows: loans.length, fileName: `loan-tape-${today}.csv` };
}
