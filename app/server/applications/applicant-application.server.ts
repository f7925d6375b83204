import { and, asc, eq } from "drizzle-orm";
import { denialSourceNotice, readDenialSource } from "~/domain/adverse-action";
import { canTransition, isOpenForReview } from "~/domain/application-lifecycle";
import type { ApplicantApplicationPage } from "~/domain/views/applicant-application";
import { loadConversation } from "~/server/conversation/index.server";
import { listRequestItems } from "~/server/conversation/index.server";
import { listTimeline } from "~/server/conversation/index.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { APPLICATION_SUMMARY_COLUMNS } from "~/server/applications/dashboard.server";
import { offersForApplication } from "~/server/offers/index.server";
import { UUID_PATTERN } from "~/domain/ids";
import { applicationSummaryView } from "~/server/applications/dashboard.server";

/**
 * The applicant's page for one of their applications. The application is looked up by id
 * AND the signed-in user's id, so another person's application is "not found" exactly like one that
 * does not exist. Only the columns the page shows are selected: no SSN, no bank numbers, no staff
 * notes; the timeline comes in the applicant's view (no internal entries, staff shown as the lender).
 */

export type ApplicantViewer = { id: string; isStaff: boolean };

/** null: not this user's application (or not an application at all): the route answers 404. */
export async function getApplicantApplication(applicationId: unknown, viewer: ApplicantViewer, db: Db = getDb()): Promise<ApplicantApplicationPage | null> {
  // Staff work on /admin/applications/:id, where their second factor and the audit apply.
  if (viewer.isStaff) return null;
  if (typeof applicationId !== "string" || !UUID_PATTERN.test(applicationId)) return null;
  const id = applicationId.toLowerCase();
  const [app] = await db
    .select({
      ...APPLICATION_SUMMARY_COLUMNS,
      withdrawnAt: loanApplications.withdrawnAt,
      decisionReasons: loanApplications.decisionReasons,
      denialSource: loanApplications.denialSource,
    })
    .from(loanApplications)
    .where(and(eq(loanApplications.id, id), eq(loanApplications.userId, viewer.id)))
    .limit(1);
  if (!app) return null;

  const reader = { id: viewer.id, side: "applicant" } as const;
  const [documents, timeline, requestItems, conversation, offers] = await Promise.all([
    db
      .select({ id: loanDocuments.id, fileName: loanDocuments.fileName, documentType: loanDocuments.documentType, uploadedAt: loanDocuments.uploadedAt })
      .from(loanDocuments)
      .where(and(eq(loanDocuments.applicationId, app.id), eq(loanDocuments.userId, viewer.id)))
      .orderBy(asc(loanDocuments.uploadedAt), asc(loanDocuments.id)),
    listTimeline(app.id, reader, db),
    listRequestItems(app.id, db),
    loadConversation(app.id, reader, db),
    offersForApplication(app.id, db),
  ]);

  const { withdrawnAt, decisionReasons, denialSource, ...summary } = app;
  return {
    application: applicationSummaryView(summary),
    documents: documents.map((d) => ({ ...d, uploadedAt: d.uploadedAt.toISOString() })),
    timeline,
    requestItems,
    conversation,
    open: isOpenForReview(app.status),
    withdrawable: canTransition(app.status, "withdraw"),
    withdrawnAt: withdrawnAt?.toISOString() ?? null,
    offers,
    // The notice of action taken, on the page too: the same reasons and source parts as the e-mail.
    denial: app.status === "denied" ? { reasons: decisionReasons ?? [], source: denialSourceNotice(readDenialSource(denialSource)) } : null,
  };
}
