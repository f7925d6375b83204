import { and, desc, eq, ne } from "drizzle-orm";
import { HARDSHIP_REASON_LABELS, HARDSHIP_REQUEST_STATUS_LABELS, MODIFICATION_STATUS_LABELS } from "~/domain/collections-enums";
import { todayUtc } from "~/domain/dates";
import { planSentence } from "~/domain/hardship-plans";
import { MODIFICATION_KIND_LABELS, modificationLimitRefusal, scheduleChangeSchema } from "~/domain/loan-modifications";
import { nameToType } from "~/domain/signer-names";
import type { BorrowerHardshipData, HardshipRequestView, PlanReviewPageData, PlanView, StaffHardshipPanelData } from "~/domain/views/hardship";
import { currentConsent, ownApplication } from "~/server/offers/index.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { hardshipRequests, loanModifications } from "~/server/platform/db/schema.server";
import { applicationById } from "~/server/applications/index.server";
import type { LoanViewer } from "./borrower-loan.server";
import { ownLoanId } from "./borrower-loan.server";
import { hardshipRefusal, parseOffer, planRefusal, previewPlan, storedTotals, type HardshipRequestRow, type ModificationRow } from "./hardship-plans.server";
import { loadLedger } from "./ledger.server";
import { loanReference } from "./loan-reference.server";

/**
 * What the hardship parts of the pages show: the borrower's loan page (Request Help with Payments, or
 * the request's status and the plan offered), the staff loan page's Hardship panel, and the borrower's
 * review page for a plan offered (its schedule before and after, recomputed now as it would be signed).
 */

function requestView(row: HardshipRequestRow): HardshipRequestView {
  return {
    id: row.id,
    reason: row.reason,
    reasonLabel: HARDSHIP_REASON_LABELS[row.reason],
    details: row.details,
    canPayCents: row.canPayCents,
    status: row.status,
    statusLabel: HARDSHIP_REQUEST_STATUS_LABELS[row.status],
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    closeNote: row.closeNote,
  };
}

/** A modification as the pages show it; an offer past its last day reads as Expired. */
function planView(row: ModificationRow, fileBase: string | null, today: string): PlanView {
  const signed = row.signedChange ? scheduleChangeSchema.safeParse(row.signedChange) : null;
  const status = row.status === "offered" && row.expiresOn < today ? "expired" : row.status;
  return {
    id: row.id,
    kind: row.kind,
    kindLabel: MODIFICATION_KIND_LABELS[row.kind],
    sentence: planSentence(signed?.success ? signed.data : parseOffer(row.offer)),
    status,
    statusLabel: MODIFICATION_STATUS_LABELS[status],
    offeredAt: row.offeredAt.toISOString(),
    expiresOn: row.expiresOn,
    totals: storedTotals(row)?.totals ?? null,
    signedAt: row.signedAt?.toISOString() ?? null,
    signerName: row.signerName,
    fileUrl: row.status === "signed" && row.storageKey && fileBase ? `${fileBase}/${row.id}` : null,
    note: row.note,
  };
}

async function modificationsOf(db: DbOrTx, loanId: string): Promise<ModificationRow[]> {
  return db.select().from(loanModifications).where(eq(loanModifications.loanId, loanId)).orderBy(desc(loanModifications.offeredAt), desc(loanModifications.id));
}

async function requestsOf(db: DbOrTx, loanId: string): Promise<HardshipRequestRow[]> {
  return db.select().from(hardshipRequests).where(eq(hardshipRequests.loanId, loanId)).orderBy(desc(hardshipRequests.createdAt), desc(hardshipRequests.id));
}

/** The borrower's loan page's hardship data (the loan already checked as theirs by the page's loader). */
export async function borrowerHardship(loanId: unknown, viewer: LoanViewer, db: DbOrTx = getDb(), today: string = todayUtc()): Promise<BorrowerHardshipData | null> {
  const id = await ownLoanId(loanId, viewer, db);
  if (!id) return null;
  const ledger = await loadLedger(id, db, today);
  if (!ledger) return null;
  const [requests, plans] = await Promise.all([requestsOf(db, id), modificationsOf(db, id)]);
  const inProgress = requests.find((r) => r.status !== "closed") ?? null;
  // The most recent request when none is in progress: its outcome (closed, with the reason) stays shown.
  const request = inProgress ?? requests[0] ?? null;
  const base = `/dashboard/loans/${id}/plans`;
  const offered = plans.find((p) => p.status === "offered" && p.expiresOn >= today) ?? null;
  const refusal = hardshipRefusal(ledger.loan, ledger.state);
  return {
    canRequest: refusal === null && inProgress === null,
    unavailable: inProgress ? null : refusal,
    request: request ? requestView(request) : null,
    offer: offered ? planView(offered, base, today) : null,
    signed: plans.filter((p) => p.status === "signed").map((p) => planView(p, base, today)),
  };
}

/** The staff loan page's Hardship panel. */
export async function staffHardshipPanel(loanId: string, db: DbOrTx = getDb(), today: string = todayUtc()): Promise<StaffHardshipPanelData | null> {
  const ledger = await loadLedger(loanId, db, today);
  if (!ledger) return null;
  const { loan, state, terms } = ledger;
  const [requests, plans] = await Promise.all([requestsOf(db, loanId), modificationsOf(db, loanId)]);
  const base = `/admin/loans/${loanId}/plans`;
  const offered = plans.find((p) => p.status === "offered") ?? null;
  const inProgress = requests.find((r) => r.status !== "closed") ?? null;
  return {
    loanId,
    unavailable: hardshipRefusal(loan, state),
    firstUnpaid: state.nextInstallment ? { number: state.nextInstallment.number, dueDate: state.nextInstallment.dueDate } : null,
    regularPaymentCents: loan.paymentCents,
    limits: { deferment: modificationLimitRefusal(terms.changes ?? [], "deferment", today), due_date_change: modificationLimitRefusal(terms.changes ?? [], "due_date_change", today) },
    request: inProgress ? requestView(inProgress) : null,
    offer: offered ? planView(offered, base, today) : null,
    plans: plans.map((p) => planView(p, base, today)),
    pastRequests: requests.filter((r) => r.status === "closed").map(requestView),
  };
}

/**
 * The review page of the plan offered (/dashboard/loans/:id/plan), or null (404: not the viewer's
 * loan). The schedules are recomputed now, as signing would; a plan that no longer gives the schedule
 * offered reads as closed with the reason (ask for a new offer).
 */
export async function loadPlanReview(loanId: unknown, viewer: LoanViewer, db: DbOrTx = getDb(), today: string = todayUtc()): Promise<PlanReviewPageData | null> {
  const id = await ownLoanId(loanId, viewer, db);
  if (!id) return null;
  const ledger = await loadLedger(id, db, today);
  if (!ledger) return null;
  const { loan, terms, state } = ledger;
  const app = await applicationById(loan.applicationId, db);
  const own = await ownApplication(loan.applicationId, viewer, db);
  const [latest] = await db
    .select()
    .from(loanModifications)
    .where(and(eq(loanModifications.loanId, id), ne(loanModifications.status, "signed")))
    .orderBy(desc(loanModifications.offeredAt), desc(loanModifications.id))
    .limit(1);
  const base: PlanReviewPageData = {
    loanId: id,
    loanReference: loanReference(loan),
    loanType: app?.loanType ?? "personal",
    state: "closed",
    closedMessage: null,
    plan: null,
    before: [],
    after: [],
    totals: null,
    digest: null,
    signerName: own ? nameToType(own) : viewer.name,
    applicationId: loan.applicationId,
    today,
  };
  const row = latest ?? null;
  const refusal = planRefusal(row, today);
  if (!row || refusal) return { ...base, plan: row ? planView(row, null, today) : null, closedMessage: refusal?.message ?? null };
  const plan = planView(row, null, today);
  const serviceRefusal = hardshipRefusal(loan, state);
  if (serviceRefusal) return { ...base, plan, closedMessage: serviceRefusal };
  const offer = parseOffer(row.offer);
  const stored = storedTotals(row);
  let preview;
  try {
    preview = previewPlan(terms, offer, today);
  } catch {
    preview = null;
  }
  if (!preview || state.nextInstallment?.number !== offer.fromInstallment || !stored?.digest || stored.digest !== preview.digest) {
    return { ...base, plan, closedMessage: "Your loan changed since this plan was offered, so its schedule is no longer the one offered. Ask us for a new offer." };
  }
  const consent = await currentConsent(loan.applicationId, viewer.id, db);
  return { ...base, state: consent ? "sign" : "consent", plan, before: preview.before, after: preview.after, totals: preview.totals, digest: preview.digest };
}
