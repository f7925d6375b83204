import { dollarsOf, percentOf } from "~/domain/money";
import { CURRENT_LOAN_STATUSES, OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { requestItemKindLabel, requestItemStatusLabel } from "~/domain/labels";
import { unreadCounts } from "~/server/conversation/index.server";
import { todayUtc } from "~/domain/dates";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { approvedLoans, loanApplications, loanDocuments, loanOffers, profiles, requestItems, signedAgreements } from "~/server/platform/db/schema.server";
import { toOfferView } from "~/server/offers/index.server";
import { draftSummaries } from "~/server/applications/drafts.server";
import type { Dashboard } from "~/domain/views/dashboard";
import { nextStep } from "~/domain/next-step";

/** What an applicant sees of each application on the dashboard and its page (never the SSN or bank data). */
export const APPLICATION_SUMMARY_COLUMNS = {
  id: loanApplications.id,
  status: loanApplications.status,
  loanType: loanApplications.loanType,
  requestedAmountCents: loanApplications.requestedAmountCents,
  purpose: loanApplications.purpose,
  submittedAt: loanApplications.submittedAt,
};

/** A summary row as the applicant's views hold it: the amount in dollars, the instant as ISO text. */
export function applicationSummaryView<T extends { requestedAmountCents: number; submittedAt: Date }>({ requestedAmountCents, ...row }: T) {
  return { ...row, requestedAmount: dollarsOf(requestedAmountCents), submittedAt: row.submittedAt.toISOString() };
}

/**
 * What an applicant's dashboard shows. Every query filters by the session's user id: nothing of
 * another user can reach the page. Sensitive columns (SSN, bank numbers) are never selected.
 */

/** How many applications the dashboard lists (newest first); older ones are rare for one person. */
const APPLICATION_LIMIT = 50;

/** Request items the applicant still has to answer. */
const OPEN_ITEM_STATUSES = ["requested", "rejected"] as const;

/** Open What We Need items listed at most (a request holds up to 10 items; more would be unusual). */
const WHAT_WE_NEED_LIMIT = 50;

/** Offers listed at most (one live offer per application; a few closed ones besides). */
const OFFER_LIMIT = 100;

export async function getDashboard(userId: string, fallbackName: string, db: Db = getDb()): Promise<Dashboard> {
  // The reads do not depend on each other (documents and unread counts only on the applications), so
  // they go out together: the page waits for two round trips, not eight.
  const [[profile], loans, apps, needed, offers, drafts] = await Promise.all([
    db.select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.id, userId)).limit(1),
    db
      .select({
        id: approvedLoans.id,
        status: approvedLoans.status,
        amountCents: approvedLoans.amountCents,
        balanceCents: approvedLoans.balanceCents,
        paymentCents: approvedLoans.paymentCents,
        noteRateMilli: approvedLoans.noteRateMilli,
        termMonths: approvedLoans.termMonths,
        approvalDate: approvedLoans.approvalDate,
        loanType: loanApplications.loanType,
        offerId: approvedLoans.offerId,
      })
      .from(approvedLoans)
      .innerJoin(loanApplications, eq(loanApplications.id, approvedLoans.applicationId))
      .where(and(eq(approvedLoans.userId, userId), inArray(approvedLoans.status, [...CURRENT_LOAN_STATUSES, "paid_off"])))
      .orderBy(desc(approvedLoans.approvalDate)),
    db
      .select({ ...APPLICATION_SUMMARY_COLUMNS, userId: loanApplications.userId })
      .from(loanApplications)
      .where(eq(loanApplications.userId, userId))
      .orderBy(desc(loanApplications.submittedAt))
      .limit(APPLICATION_LIMIT),
    // One query across the applicant's applications; items of decided applications no longer matter.
    db
      .select({
        id: requestItems.id,
        applicationId: requestItems.applicationId,
        loanType: loanApplications.loanType,
        kind: requestItems.kind,
        status: requestItems.status,
        dueDate: requestItems.dueDate,
      })
      .from(requestItems)
      .innerJoin(loanApplications, eq(loanApplications.id, requestItems.applicationId))
      .where(
        and(
          eq(requestItems.userId, userId),
          inArray(requestItems.status, [...OPEN_ITEM_STATUSES]),
          eq(loanApplications.userId, userId),
          inArray(loanApplications.status, [...OPEN_REVIEW_STATUSES]),
        ),
      )
      .orderBy(asc(requestItems.dueDate), asc(requestItems.createdAt), asc(requestItems.id))
      .limit(WHAT_WE_NEED_LIMIT),
    // The offers on all of the applicant's applications, in one query filtered by the user's id.
    db
      .select({ offer: loanOffers, firstPaymentDue: signedAgreements.firstPaymentDue })
      .from(loanOffers)
      .leftJoin(signedAgreements, eq(signedAgreements.offerId, loanOffers.id))
      .where(eq(loanOffers.userId, userId))
      .orderBy(desc(loanOffers.createdAt), desc(loanOffers.id))
      .limit(OFFER_LIMIT),
    draftSummaries(db, userId),
  ]);

  const appIds = apps.map((a) => a.id);
  const [docs, unread] = await Promise.all([
    appIds.length
      ? db
          .select({ id: loanDocuments.id, applicationId: loanDocuments.applicationId, fileName: loanDocuments.fileName, documentType: loanDocuments.documentType })
          .from(loanDocuments)
          .where(and(eq(loanDocuments.userId, userId), inArray(loanDocuments.applicationId, appIds)))
      : Promise.resolve([]),
    unreadCounts(appIds, { id: userId, side: "applicant" }, db),
  ]);
  const today = todayUtc();
  const loanView = ({ offerId, amountCents, balanceCents, paymentCents, noteRateMilli, ...l }: (typeof loans)[number]) => ({
    ...l,
    approvedAmount: dollarsOf(amountCents),
    balance: dollarsOf(balanceCents),
    monthlyPayment: dollarsOf(paymentCents),
    interestRate: percentOf(noteRateMilli),
    approvalDate: l.approvalDate.toISOString(),
    nextStep: nextStep({ kind: "loan", status: l.status, signedInPortal: offerId !== null }),
  });
  // Offers come newest first: an application's first one is its live or last offer.
  const latestOffer = new Map<string, (typeof offers)[number]["offer"]>();
  for (const { offer } of offers) if (!latestOffer.has(offer.applicationId)) latestOffer.set(offer.applicationId, offer);

  return {
    fullName: profile?.fullName ?? fallbackName,
    approvedLoans: loans.filter((l) => l.status !== "paid_off").map(loanView),
    // Loans paid in full, listed apart from the current ones.
    paidOffLoans: loans.filter((l) => l.status === "paid_off").map(loanView),
    applications: apps.map((a) => ({
      ...applicationSummaryView(a),
      documents: docs.filter((d) => d.applicationId === a.id).map(({ id, fileName, documentType }) => ({ id, fileName, documentType })),
      unreadMessages: unread.get(a.id) ?? 0,
      nextStep: nextStep({
        kind: "application",
        status: a.status,
        offer: latestOffer.get(a.id) ?? null,
        openRequests: needed.filter((n) => n.applicationId === a.id).length,
      }),
    })),
    whatWeNeed: needed.map((item) => {
      const status = item.status === "rejected" ? "rejected" : "requested";
      return {
        id: item.id,
        applicationId: item.applicationId,
        loanType: item.loanType,
        kindLabel: requestItemKindLabel(item.kind),
        status,
        statusLabel: requestItemStatusLabel(status),
        dueDate: item.dueDate,
        overdue: item.dueDate < today,
      };
    }),
    offers: offers.map((r) => toOfferView(r.offer, r.firstPaymentDue)),
    drafts,
  };
}
