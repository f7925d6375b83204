import { dollarsOf, percentOf } from "~/domain/money";
import { CURRENT_LOAN_STATUSES, OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { requestItemKindLabel, requestItemStatusLabel } from "~/domain/labels";
import { unreadCounts, waitingItemsOf } from "~/server/conversation/index.server";
import { personById } from "~/server/accounts/index.server";
import { fundingNoticesOf, loansOfBorrower } from "~/server/loans/index.server";
import { todayUtc } from "~/domain/dates";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { offersOfApplicant, toOfferView } from "~/server/offers/index.server";
import { draftSummaries } from "~/server/applications/drafts.server";
import { applicationsByIds } from "./application-records.server";
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

/** Open What We Need items listed at most (a request holds up to 10 items; more would be unusual). */
const WHAT_WE_NEED_LIMIT = 50;

/** Offers listed at most (one live offer per application; a few closed ones besides). */
const OFFER_LIMIT = 100;

export async function getDashboard(userId: string, fallbackName: string, db: Db = getDb()): Promise<Dashboard> {
  // The reads do not depend on each other (documents and unread counts only on the applications), so
  // they go out together: the page waits for two round trips, not eight.
  const openApplicationIds = sql`select ${loanApplications.id} from ${loanApplications} where ${and(eq(loanApplications.userId, userId), inArray(loanApplications.status, [...OPEN_REVIEW_STATUSES]))}`;
  const [person, loanRows, apps, waiting, offers, drafts] = await Promise.all([
    personById(userId, db),
    // Cancelled loans too: their card says the agreement is void, and why.
    loansOfBorrower(userId, [...CURRENT_LOAN_STATUSES, "paid_off", "cancelled"], db),
    db
      .select({ ...APPLICATION_SUMMARY_COLUMNS, userId: loanApplications.userId })
      .from(loanApplications)
      .where(eq(loanApplications.userId, userId))
      .orderBy(desc(loanApplications.submittedAt))
      .limit(APPLICATION_LIMIT),
    // One query across the applicant's applications; items of decided applications no longer matter.
    waitingItemsOf(userId, openApplicationIds, WHAT_WE_NEED_LIMIT, db),
    // The offers on all of the applicant's applications, in one query filtered by the user's id.
    offersOfApplicant(userId, OFFER_LIMIT, db),
    draftSummaries(db, userId),
  ]);

  const appIds = apps.map((a) => a.id);
  const [docs, unread, loanApps, fundingNotices] = await Promise.all([
    appIds.length
      ? db
          .select({ id: loanDocuments.id, applicationId: loanDocuments.applicationId, fileName: loanDocuments.fileName, documentType: loanDocuments.documentType })
          .from(loanDocuments)
          .where(and(eq(loanDocuments.userId, userId), inArray(loanDocuments.applicationId, appIds)))
      : Promise.resolve([]),
    unreadCounts(appIds, { id: userId, side: "applicant" }, db),
    applicationsByIds([...loanRows.map((l) => l.applicationId), ...waiting.map((w) => w.applicationId)], db),
    fundingNoticesOf(loanRows.filter((l) => l.status !== "paid_off").map((l) => l.id), db),
  ]);
  // A loan or item whose application is gone is left out, as the joins did.
  const loans = loanRows.flatMap(({ applicationId, ...l }) => {
    const loanType = loanApps.get(applicationId)?.loanType;
    return loanType === undefined ? [] : [{ ...l, loanType }];
  });
  const needed = waiting.flatMap((w) => {
    const loanType = loanApps.get(w.applicationId)?.loanType;
    return loanType === undefined ? [] : [{ ...w, loanType }];
  });
  const today = todayUtc();
  const loanView = ({ offerId, amountCents, balanceCents, paymentCents, noteRateMilli, ...l }: (typeof loans)[number]) => ({
    ...l,
    approvedAmount: dollarsOf(amountCents),
    balance: dollarsOf(balanceCents),
    monthlyPayment: dollarsOf(paymentCents),
    interestRate: percentOf(noteRateMilli),
    approvalDate: l.approvalDate.toISOString(),
    nextStep: nextStep({ kind: "loan", status: l.status, signedInPortal: offerId !== null }),
    funding: fundingNotices.get(l.id) ?? null,
  });
  // Offers come newest first: an application's first one is its live or last offer.
  const latestOffer = new Map<string, (typeof offers)[number]["offer"]>();
  for (const { offer } of offers) if (!latestOffer.has(offer.applicationId)) latestOffer.set(offer.applicationId, offer);

  return {
    fullName: person?.profileName ?? fallbackName,
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
