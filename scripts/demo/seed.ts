// Writes the demo data set into a database and document storage the way the product would (files
// first, then one transaction per application; decisions through the review code, with audit rows).
// Running it again adds nothing.
import { seedDemoLateLoans } from "./late-loans";
import { and, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { validateApplicationFields } from "~/domain/validation/application";
import { moderateTestimonial } from "~/server/public-site/index.server";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/platform/audit/audit.server";
import { ensureAdmin, ensureStaff } from "~/server/accounts/index.server";
import { getAuth } from "~/server/accounts/index.server";
import { applicationRow, bankAccountRow } from "~/server/applications/index.server";
import type { Database, Db } from "~/server/platform/db/client.server";
import {
  applicationEvents,
  applicationMessages,
  approvedLoans,
  auditLog,
  bankAccounts,
  loanFundings,
  contactMessages,
  esignConsents,
  loanApplications,
  loanDocuments,
  loanOffers,
  profiles,
  requestItems,
  testimonials,
  user as userTable,
} from "~/server/platform/db/schema.server";
import { requestItemKindLabel } from "~/domain/labels";
import { approveApplication, closeAsIncomplete, denyApplication } from "~/server/applications/index.server";
import { giveConsent } from "~/server/offers/index.server";
import { declineOffer } from "~/server/offers/index.server";
import { signOffer } from "~/server/offers/index.server";
import { documentKey, getStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { addMonths } from "~/domain/truth-in-lending";
import { payoffQuote } from "~/domain/loan-servicing";
import { recordReadMarkAsOf } from "~/server/conversation/index.server";
import { todayUtc } from "~/domain/dates";
import { loadLedger, recordAccountValidation } from "~/server/loans/index.server";
import { recordPayment } from "~/server/loans/index.server";
import { runServicingJobs } from "~/server/loans/index.server";
import { seedDemoAutopay } from "./autopay";
import { createTestimonial } from "~/server/public-site/index.server";
import { DEMO_ADMIN_DEFAULTS, DEMO_APPLICANT_PASSWORD, DEMO_APPLICANTS, DEMO_CONTACT_MESSAGES, type DemoApplicant, type DemoApplication, type Outcome } from "./data";
import { demoPdf, documentsFor } from "./documents";
import { screenDemoApplications } from "./sanctions";
import { seedDemoReturn } from "./returns";

/** Audit rows and decisions made by the seeder say where they came from. */
const DEMO_REQUEST: RequestInfo = { ip: "127.0.0.1", userAgent: "npm run demo (demo data seeder)" };

/**
 * Demo staff beside the demo admin, one per other role, so each role can be tried at once
 * (each enrols its own second factor on the first staff page, as the admin does).
 */
export const DEMO_STAFF = [
  { email: "officer@example.com", password: "Officer!Demo123", name: "Demo Loan Officer", role: "loan_officer" },
  { email: "auditor@example.com", password: "Auditor!Demo123", name: "Demo Auditor", role: "auditor" },
] as const;

export type SeedDemoOptions = {
  adminEmail?: string;
  adminPassword?: string;
  adminName?: string;
  /** Where documents go (default: the configured document storage). */
  storage?: DocumentStorage;
};

export type SeedDemoResult = {
  admin: { email: string; created: boolean; promoted: boolean };
  /** The demo loan officer and auditor (an existing account keeps its password and role). */
  staff: { email: string; password: string; role: "loan_officer" | "auditor"; created: boolean }[];
  applicantsCreated: number;
  applicationsCreated: number;
  byStatus: Record<Outcome, number>;
  documentsStored: number;
  testimonialsCreated: number;
  messagesCreated: number;
  /** What We Need items and conversation messages on demo applications. */
  requestItemsCreated: number;
  conversationMessagesCreated: number;
  auditRowsWritten: number;
  /** Potential matches the screening against the sample sanctions list found (for staff to clear or confirm). */
  sanctionsMatches: number;
  /** One line per new application, for the summary. */
  created: string[];
};

const ago = (unit: "day" | "hour", amount: number) => sql`now() - (${amount}::float8 * ${sql.raw(`interval '1 ${unit}'`)})`;

async function ensureApplicant(database: Database, applicant: DemoApplicant): Promise<{ id: string; created: boolean }> {
  const db = database.db;
  const [existing] = await db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, applicant.email)).limit(1);
  let id = existing?.id;
  const created = !id;
  if (!id) {
    const result = await getAuth(database).api.signUpEmail({ body: { name: applicant.name, email: applicant.email, password: DEMO_APPLICANT_PASSWORD } });
    id = result.user.id;
    // The demo addresses cannot receive the sign-up code; they count as verified.
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, id));
    const p = applicant.personal;
    await db
      .update(profiles)
      .set({
        phone: p.phone!.replace(/\D/g, ""),
        address: [p.addressLine1, p.addressLine2].filter(Boolean).join(", "),
        city: p.city!,
        state: p.state!,
        zipCode: p.zipCode!,
      })
      .where(eq(profiles.id, id));
  }
  return { id, created };
}

/** Writes one application the way a submission does: files first, then one transaction. */
async function insertApplication(
  db: Db,
  storage: DocumentStorage,
  userId: string,
  applicant: DemoApplicant,
  app: DemoApplication,
  seed: number,
): Promise<{ id: string; documents: number }> {
  const raw = { ...applicant.personal, email: applicant.email, ...app.loan, ...applicant.financial, ...app.bank, agreeToTerms: "true" };
  const validated = validateApplicationFields(raw);
  if (!validated.ok) throw new Error(`Demo application ${app.key} is invalid: ${validated.problem.field}: ${validated.problem.message}`);
  const f = validated.value;
  const applicationId = randomUUID();
  const files = documentsFor(app, f, seed).map((file) => ({ ...file, key: documentKey(userId, applicationId, file.type, file.ext) }));
  const written: string[] = [];
  try {
    for (const file of files) {
      await storage.put(file.key, file.bytes, file.mime);
      written.push(file.key);
    }
    await db.transaction(async (tx) => {
      await tx.insert(loanApplications).values({
        ...applicationRow(applicationId, { id: userId }, f, app.key),
        submittedAt: ago("day", app.daysAgo),
        createdAt: ago("day", app.daysAgo),
        updatedAt: ago("day", app.daysAgo),
      });
      await tx.insert(applicationEvents).values({
        applicationId,
        userId,
        kind: "submitted",
        actorId: userId,
        actorSide: "applicant",
        createdAt: ago("day", app.daysAgo),
      });
      await tx.insert(loanDocuments).values(
        files.map((file) => ({
          applicationId,
          userId,
          documentType: file.type,
          fileName: `${file.type}.${file.ext}`,
          filePath: file.key,
          fileSize: file.bytes.length,
          mimeType: file.mime,
          uploadedAt: ago("day", app.daysAgo),
        })),
      );
      const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(bankAccounts).where(eq(bankAccounts.userId, userId));
      await tx.insert(bankAccounts).values({
        ...bankAccountRow(userId, applicationId, f, Number(n) === 0),
        createdAt: ago("day", app.daysAgo),
      });
    });
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    throw error;
  }
  return { id: applicationId, documents: files.length };
}

const DAY_MS = 86_400_000;

/**
 * When an approved demo application was decided, its offer answered and, once signed, its loan
 * started: always in that order after the submission (submitted < decided < consent < signed < first
 * payment). A serviced loan starts a fixed number of days ago so the demo shows its state (current:
 * 70 days, two installments paid and the third ahead; late: 85 days, the second missed about 25 days
 * ago); it was decided the day before signing, so its application is submitted earlier still
 * (DEMO_APPLICANTS gives those at least two days more). A declined offer is decided a day after
 * submission and declined a day later. An open offer is made now (it must not have expired).
 */
export function demoTimeline(app: DemoApplication, now: Date = new Date()): { decidedAt: Date; consentAt?: Date; signedAt?: Date; declinedAt?: Date } | null {
  if (app.outcome !== "approved" || !app.offer) return null;
  const submitted = now.getTime() - app.daysAgo * DAY_MS;
  if (app.offer === "declined") return { decidedAt: new Date(submitted + DAY_MS), declinedAt: new Date(submitted + 2 * DAY_MS) };
  // A loan behind by N days started about a month before its first (unpaid) installment fell due N days ago.
  const startDaysAgo = app.servicing === "behind" ? (app.behindDays ?? 0) + 30 : app.servicing === "late" ? 85 : app.servicing ? 70 : Math.max(0, app.daysAgo - 2);
  const signedAt = new Date(`${todayUtc(new Date(now.getTime() - startDaysAgo * DAY_MS))}T15:00:00Z`);
  const decidedAt = new Date(signedAt.getTime() - DAY_MS);
  if (decidedAt.getTime() <= submitted) throw new Error(`Demo application ${app.key}: submitted ${app.daysAgo} days ago, after its decision ${startDaysAgo + 1} days ago`);
  return { decidedAt, consentAt: new Date(signedAt.getTime() - 3_600_000), signedAt };
}

/**
 * The services stamp some rows with the database's clock (the review time, the offer's and the
 * timeline's rows); the demo (only) moves them to the timeline's times, as if staff and applicant had
 * acted then.
 */
async function backdateDecision(db: Db, applicationId: string, t: NonNullable<ReturnType<typeof demoTimeline>>): Promise<void> {
  await db.update(loanApplications).set({ reviewedAt: t.decidedAt }).where(eq(loanApplications.id, applicationId));
  // The offer follows the approval by a minute, as the approve dialog's second step would.
  const offeredAt = new Date(t.decidedAt.getTime() + 60_000);
  await db.update(loanOffers).set({ createdAt: offeredAt }).where(eq(loanOffers.applicationId, applicationId));
  await db.update(applicationEvents).set({ createdAt: t.decidedAt }).where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, "approved")));
  await db.update(applicationEvents).set({ createdAt: offeredAt }).where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, "offer_made")));
  if (t.consentAt) {
    await db.update(esignConsents).set({ consentedAt: t.consentAt }).where(eq(esignConsents.applicationId, applicationId));
    await db.update(applicationEvents).set({ createdAt: t.consentAt }).where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, "esign_consented")));
  }
  if (t.signedAt) await db.update(applicationEvents).set({ createdAt: t.signedAt }).where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, "agreement_signed")));
  if (t.declinedAt) await db.update(applicationEvents).set({ createdAt: t.declinedAt }).where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, "offer_declined")));
}

/**
 * A serviced demo loan's funding, as Fund Loan and Mark Funds Settled leave it: its credit of the net
 * proceeds to the application's account settled on the expected funding day, the loan active from then.
 */
async function recordDemoFunding(db: Db, applicationId: string, actor: AuditActor): Promise<void> {
  const [loan] = await db
    .select({ id: approvedLoans.id, expectedFundingDate: approvedLoans.expectedFundingDate, approvalDate: approvedLoans.approvalDate, amountFinancedCents: loanOffers.amountFinancedCents, loanType: loanApplications.loanType })
    .from(approvedLoans)
    .innerJoin(loanOffers, eq(loanOffers.id, approvedLoans.offerId))
    .innerJoin(loanApplications, eq(loanApplications.id, approvedLoans.applicationId))
    .where(eq(approvedLoans.applicationId, applicationId));
  const [account] = await db.select({ id: bankAccounts.id }).from(bankAccounts).where(eq(bankAccounts.applicationId, applicationId)).limit(1);
  const fundedOn = loan!.expectedFundingDate!;
  // The account was validated before the credit (staff recorded a voided check; the prenote queued at signing became that).
  await recordAccountValidation(account!.id, { method: "bank_letter", reference: "DEMO-VOIDED-CHECK" }, { actor, request: DEMO_REQUEST }, db, loan!.approvalDate);
  await db.insert(loanFundings).values({
    loanId: loan!.id,
    bankAccountId: account!.id,
    amountCents: loan!.amountFinancedCents,
    secCode: loan!.loanType === "business" ? "CCD" : "PPD",
    status: "settled",
    checklist: { source: "demo" },
    preparedBy: actor.id,
    preparedAt: loan!.approvalDate,
    releasedBy: actor.id,
    releasedAt: loan!.approvalDate,
    settledOn: fundedOn,
  });
  await db.update(approvedLoans).set({ status: "active", fundedOn }).where(eq(approvedLoans.id, loan!.id));
}

/** Moves an application into its demo status the way admins do (approve/deny write their own audit rows). */
async function decide(db: Db, storage: DocumentStorage, app: DemoApplication, applicationId: string, userId: string, actor: AuditActor): Promise<number> {
  if (app.outcome === "approved") {
    const timeline = demoTimeline(app);
    await approveApplication(applicationId, app.approve!, { actor, request: DEMO_REQUEST }, db, timeline?.decidedAt);
    if (!app.offer || !timeline) return 1;
    // The applicant's side, through the same services the pages use (their own audit rows).
    const [owner] = await db.select({ email: userTable.email, name: userTable.name }).from(userTable).where(eq(userTable.id, userId)).limit(1);
    const applicant = { id: userId, name: owner!.name, email: owner!.email, isStaff: false };
    if (app.offer === "declined") {
      await declineOffer(applicationId, { actor: applicant, request: DEMO_REQUEST }, db, timeline.declinedAt);
      await backdateDecision(db, applicationId, timeline);
      return 2;
    }
    await giveConsent(applicationId, { actor: applicant, request: DEMO_REQUEST }, db, timeline.consentAt);
    const [row] = await db.select({ firstName: loanApplications.firstName, lastName: loanApplications.lastName }).from(loanApplications).where(eq(loanApplications.id, applicationId)).limit(1);
    await signOffer(applicationId, { kind: "typed", name: `${row!.firstName} ${row!.lastName}` }, { actor: applicant, request: DEMO_REQUEST }, { db, storage, now: timeline.signedAt });
    // Signing opens the loan Awaiting Funding. A serviced demo loan was funded on its expected funding
    // day: its credit settled then (written back in time, like the decisions); the others stay awaiting.
    if (app.servicing) await recordDemoFunding(db, applicationId, actor);
    await backdateDecision(db, applicationId, timeline);
    return 3;
  }
  if (app.outcome === "denied") {
    await denyApplication(applicationId, app.denyReasons ?? ["Does not meet our lending guidelines"], { actor, request: DEMO_REQUEST }, db);
    return 1;
  }
  // Closed as incomplete: reviewed first like one under review; closed after its overdue request is in (seedDemo).
  if (app.outcome === "under_review" || app.outcome === "incomplete") {
    await db.transaction(async (tx) => {
      await tx
        .update(loanApplications)
        .set({ status: "under_review", notes: app.note ?? null, updatedAt: sql`now()` })
        .where(and(eq(loanApplications.id, applicationId), eq(loanApplications.status, "pending")));
      // The timeline as Start Review and a staff note would have written it, back in time.
      const startedHoursAgo = app.daysAgo * 24 - (app.reviewStartedHoursAfter ?? 12);
      await tx.insert(applicationEvents).values([
        { applicationId, userId, kind: "review_started", actorId: actor.id, actorSide: "staff", createdAt: ago("hour", startedHoursAgo) },
        ...(app.note
          ? [{ applicationId, userId, kind: "note" as const, actorId: actor.id, actorSide: "staff" as const, summary: app.note, internal: true, createdAt: ago("hour", startedHoursAgo - 1) }]
          : []),
      ]);
      await writeAudit(tx, {
        actor,
        action: "application.note",
        table: "loan_applications",
        recordId: applicationId,
        details: { status: "under_review", note: app.note ?? "", source: "demo" },
        request: DEMO_REQUEST,
      });
    });
    return 1;
  }
  return 0;
}

/**
 * Servicing for a signed demo loan. The loan was signed on its timeline's day (demoTimeline),
 * so it started then; payments are posted through recordPayment like staff would: "current"
 * pays every installment due so far on its due date; "late" pays the first and misses the second (past
 * the grace period: the servicing job run at the end assesses its late fee); "paid_in_full" pays the
 * first and then the payoff; "behind" pays nothing (its first installment is past due). Returns the audit rows written.
 */
async function serviceDemoLoan(db: Db, app: DemoApplication, applicationId: string, actor: AuditActor): Promise<number> {
  if (!app.servicing || app.servicing === "behind") return 0;
  const [loan] = await db.select({ id: approvedLoans.id, startDate: approvedLoans.startDate }).from(approvedLoans).where(eq(approvedLoans.applicationId, applicationId)).limit(1);
  if (!loan) return 0;
  const today = todayUtc();
  const start = loan.startDate;
  let audits = 0;
  const pay = async (receivedOn: string, reference: string) => {
    const ledger = (await loadLedger(loan.id, db, receivedOn))!;
    const due = ledger.state.installments.find((row) => !row.paid);
    if (!due) return;
    await recordPayment(loan.id, { amountCents: due.paymentCents, receivedOn, method: "ach", reference }, { actor, request: DEMO_REQUEST }, db);
    audits += 1;
  };
  const ref = (n: number) => `DEMO-${app.key.toUpperCase()}-${n}`;
  await pay(addMonths(start, 1), ref(1));
  if (app.servicing === "current") await pay(addMonths(start, 2), ref(2));
  if (app.servicing === "paid_in_full") {
    const ledger = (await loadLedger(loan.id, db, today))!;
    const quote = payoffQuote(ledger.terms, ledger.payments, ledger.fees, today);
    await recordPayment(loan.id, { amountCents: quote.totalCents, receivedOn: today, method: "wire", reference: `${ref(2)}-PAYOFF` }, { actor, request: DEMO_REQUEST }, db);
    audits += 1;
  }
  return audits;
}

/** 'yyyy-MM-dd' `days` from today (UTC), the way due dates are stored. */
function dateInDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * What We Need and Messages on a new demo application, with the timeline events the
 * services would have written, each at its time: requests, answers (files first, like an upload),
 * reviews, messages and how far each side has read. Rows go in directly (one transaction), not
 * through the services, so the demo shows every item status without waiting for due dates.
 */
async function insertConversation(
  db: Db,
  storage: DocumentStorage,
  userId: string,
  applicationId: string,
  app: DemoApplication,
  actor: AuditActor,
): Promise<{ requestItems: number; messages: number; documents: number }> {
  const requests = app.requests ?? [];
  const conversation = app.conversation;
  if (requests.length === 0 && !conversation) return { requestItems: 0, messages: 0, documents: 0 };

  const planned = requests.map((request) => ({
    request,
    requestId: randomUUID(),
    items: request.items.map((item) => {
      const id = randomUUID();
      const upload = item.answer?.upload;
      const file = upload ? { key: documentKey(userId, applicationId, `answer_${id.replace(/-/g, "")}`, "pdf"), bytes: demoPdf(upload.title, upload.lines), fileName: upload.fileName } : null;
      return { id, item, file };
    }),
  }));
  const files = planned.flatMap((p) => p.items.flatMap((i) => (i.file ? [i.file] : [])));
  const written: string[] = [];
  try {
    for (const file of files) {
      await storage.put(file.key, file.bytes, "application/pdf");
      written.push(file.key);
    }
    await db.transaction(async (tx) => {
      const staff = { actorId: actor.id, actorSide: "staff" as const };
      const applicant = { actorId: userId, actorSide: "applicant" as const };
      for (const { request, requestId, items } of planned) {
        const dueDate = dateInDays(request.dueInDays);
        await tx.insert(requestItems).values(
          items.map(({ id, item }) => ({
            id,
            requestId,
            applicationId,
            userId,
            kind: item.kind,
            note: item.note,
            dueDate,
            status: item.status,
            replyText: item.answer?.reply ?? null,
            rejectionReason: item.review?.rejectionReason ?? null,
            requestedBy: actor.id,
            answeredAt: item.answer ? ago("hour", item.answer.hoursAgo) : null,
            reviewedAt: item.review ? ago("hour", item.review.hoursAgo) : null,
            reviewedBy: item.review ? actor.id : null,
            createdAt: ago("hour", request.hoursAgo),
            updatedAt: ago("hour", item.review?.hoursAgo ?? item.answer?.hoursAgo ?? request.hoursAgo),
          })),
        );
        await tx.insert(applicationEvents).values({
          applicationId,
          userId,
          kind: "documents_requested",
          ...staff,
          summary: items.map(({ item }) => requestItemKindLabel(item.kind)).join(", "),
          createdAt: ago("hour", request.hoursAgo),
        });
        for (const { id, item, file } of items) {
          const label = requestItemKindLabel(item.kind);
          if (file && item.answer) {
            await tx.insert(loanDocuments).values({
              applicationId,
              userId,
              requestItemId: id,
              documentType: item.kind === "question" ? "other_document" : item.kind,
              fileName: file.fileName,
              filePath: file.key,
              fileSize: file.bytes.length,
              mimeType: "application/pdf",
              uploadedAt: ago("hour", item.answer.hoursAgo),
            });
          }
          if (item.answer) {
            await tx.insert(applicationEvents).values({
              applicationId,
              userId,
              kind: item.answer.reply ? "reply_received" : "document_received",
              ...applicant,
              summary: file ? `${label}: ${file.fileName}` : label,
              createdAt: ago("hour", item.answer.hoursAgo),
            });
          }
          if (item.review) {
            const rejected = item.status === "rejected";
            await tx.insert(applicationEvents).values({
              applicationId,
              userId,
              kind: rejected ? "document_rejected" : "document_accepted",
              ...staff,
              summary: rejected ? `${label}: ${item.review.rejectionReason ?? ""}` : label,
              createdAt: ago("hour", item.review.hoursAgo),
            });
          }
        }
      }

      for (const message of conversation?.messages ?? []) {
        const by = message.side === "staff" ? staff : applicant;
        await tx.insert(applicationMessages).values({ applicationId, userId, authorId: by.actorId, authorSide: message.side, body: message.body, createdAt: ago("hour", message.hoursAgo) });
        // The timeline notes that a message was written, never its text.
        await tx.insert(applicationEvents).values({ applicationId, userId, kind: "message", ...by, createdAt: ago("hour", message.hoursAgo) });
      }
      const reads = [
        { readerId: userId, hoursAgo: conversation?.applicantReadHoursAgo },
        { readerId: actor.id, hoursAgo: conversation?.staffReadHoursAgo },
      ].flatMap((r) => (r.hoursAgo === undefined ? [] : [{ applicationId, readerId: r.readerId, lastReadAt: ago("hour", r.hoursAgo) }]));
      for (const read of reads) await recordReadMarkAsOf(tx, { applicationId: read.applicationId, readerId: read.readerId, at: read.lastReadAt });
    });
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    throw error;
  }
  return {
    requestItems: planned.reduce((n, p) => n + p.items.length, 0),
    messages: conversation?.messages.length ?? 0,
    documents: files.length,
  };
}

/**
 * Adds the demo data set to `database` (migrated). Idempotent: applicants are found by e-mail,
 * applications by their idempotency key, testimonials by author and text, messages by sender and
 * subject; whatever exists is left alone, so a second run adds nothing.
 */
export async function seedDemo(database: Database, options: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const db = database.db;
  const storage = options.storage ?? getStorage();
  const adminEmail = (options.adminEmail ?? DEMO_ADMIN_DEFAULTS.email).trim().toLowerCase();
  const admin = await ensureAdmin(database, {
    email: adminEmail,
    password: options.adminPassword ?? DEMO_ADMIN_DEFAULTS.password,
    name: options.adminName ?? DEMO_ADMIN_DEFAULTS.name,
  });
  const [adminRow] = await db.select({ id: userTable.id, name: userTable.name, email: userTable.email }).from(userTable).where(eq(userTable.id, admin.userId));
  const actor: AuditActor = { id: adminRow!.id, name: adminRow!.name, email: adminRow!.email };
  const staff: SeedDemoResult["staff"] = [];
  for (const member of DEMO_STAFF) {
    const made = await ensureStaff(database, member);
    staff.push({ email: member.email, password: member.password, role: member.role, created: made.created });
  }

  const result: SeedDemoResult = {
    admin: { email: adminEmail, created: admin.created, promoted: admin.promoted },
    staff,
    applicantsCreated: 0,
    applicationsCreated: 0,
    byStatus: { pending: 0, under_review: 0, approved: 0, denied: 0, incomplete: 0 },
    documentsStored: 0,
    testimonialsCreated: 0,
    messagesCreated: 0,
    requestItemsCreated: 0,
    conversationMessagesCreated: 0,
    auditRowsWritten: 0,
    sanctionsMatches: 0,
    created: [],
  };
  const firstUserIds: string[] = [];
  let seed = 0;
  let serviced = 0;

  for (const applicant of DEMO_APPLICANTS) {
    const { id: userId, created } = await ensureApplicant(database, applicant);
    firstUserIds.push(userId);
    if (created) result.applicantsCreated += 1;

    const oldestFirst = [...applicant.applications].sort((a, b) => b.daysAgo - a.daysAgo);
    for (const app of oldestFirst) {
      seed += 1;
      const [exists] = await db
        .select({ id: loanApplications.id })
        .from(loanApplications)
        .where(and(eq(loanApplications.userId, userId), eq(loanApplications.idempotencyKey, app.key)))
        .limit(1);
      if (exists) continue;
      const { id, documents } = await insertApplication(db, storage, userId, applicant, app, seed);
      result.auditRowsWritten += await decide(db, storage, app, id, userId, actor);
      if (app.servicing) {
        result.auditRowsWritten += await serviceDemoLoan(db, app, id, actor);
        serviced += 1;
      }
      const conversation = await insertConversation(db, storage, userId, id, app, actor);
      if (app.outcome === "incomplete") {
        // Close as Incomplete, the way staff do once a requested item is past its due date (with the notice).
        await closeAsIncomplete(id, { actor, request: DEMO_REQUEST }, db);
        result.auditRowsWritten += 1;
      }
      result.requestItemsCreated += conversation.requestItems;
      result.conversationMessagesCreated += conversation.messages;
      result.documentsStored += conversation.documents;
      result.applicationsCreated += 1;
      result.documentsStored += documents;
      result.byStatus[app.outcome] += 1;
      result.created.push(`${applicant.email}: ${app.loan.loanType!.replace("-loans", "").replace(/-/g, " ")} loan, ${app.outcome.replace("_", " ")}`);
    }

    const t = applicant.testimonial;
    if (t) {
      const [exists] = await db
        .select({ id: testimonials.id })
        .from(testimonials)
        .where(and(eq(testimonials.userId, userId), eq(testimonials.content, t.content)))
        .limit(1);
      if (!exists) {
        const displayName = `${applicant.personal.firstName} ${applicant.personal.lastName!.charAt(0)}.`;
        const { id } = await createTestimonial(userId, { rating: t.rating, fullName: applicant.name, displayName, role: t.role, location: t.location, content: t.content }, db);
        await db.update(testimonials).set({ createdAt: ago("day", t.daysAgo) }).where(eq(testimonials.id, id));
        result.testimonialsCreated += 1;
        if (t.approve) {
          const moderated = await moderateTestimonial({ id, decision: "approve" }, { actor, request: DEMO_REQUEST }, db);
          if (moderated.ok) result.auditRowsWritten += 1;
        }
      }
    }
  }

  for (const m of DEMO_CONTACT_MESSAGES) {
    const [exists] = await db
      .select({ id: contactMessages.id })
      .from(contactMessages)
      .where(and(eq(contactMessages.email, m.email), eq(contactMessages.subject, m.subject)))
      .limit(1);
    if (exists) continue;
    await db.insert(contactMessages).values({
      name: m.name,
      email: m.email,
      phone: m.phone,
      subject: m.subject,
      message: m.message,
      status: m.status,
      ipAddress: "192.0.2.44",
      createdAt: ago("hour", m.hoursAgo),
    });
    result.messagesCreated += 1;
  }

  // Screening against the sample sanctions list: one demo applicant's name is close to a listed one.
  if (result.applicationsCreated > 0) result.sanctionsMatches = await screenDemoApplications(db);

  // The servicing job once, for the loans just moved back in time: the late loan's fee and notices.
  if (serviced > 0) {
    const run = await runServicingJobs(db);
    result.auditRowsWritten += run.feesAssessed;
    // A returned debit (R01) with its retry pending, on the late loan (the bounced payment is why it is late).
    await seedDemoReturn(db, actor, DEMO_REQUEST, "demo-daniel-personal-02");
    result.auditRowsWritten += await seedDemoAutopay(db, DEMO_REQUEST);
    // Late loans worked by collections: a broken promise, a signed payment plan, a servicemember, a charge-off.
    result.auditRowsWritten += await seedDemoLateLoans(db, actor, DEMO_REQUEST, DEMO_APPLICANTS.flatMap((a) => a.applications));
  }

  // A little history for the monitoring page (ranges 6 h to 7 days), only alongside new demo data.
  if (result.applicantsCreated > 0) {
    const history: { hoursAgo: number; action: string; table: string; recordId?: string; details: Record<string, unknown> }[] = [
      { hoursAgo: 140, action: "client.list", table: "profiles", details: { count: DEMO_APPLICANTS.length } },
      { hoursAgo: 70, action: "applications.list", table: "loan_applications", details: { tab: "pending" } },
      { hoursAgo: 50, action: "client.view", table: "profiles", recordId: firstUserIds[0], details: {} },
      { hoursAgo: 26, action: "document.list", table: "loan_documents", details: {} },
      { hoursAgo: 5, action: "client.view", table: "profiles", recordId: firstUserIds[2], details: {} },
      { hoursAgo: 1, action: "applications.list", table: "loan_applications", details: { tab: "pending" } },
    ];
    await db.insert(auditLog).values(
      history.map((h) => ({
        actorId: actor.id,
        actorName: actor.name,
        actorEmail: actor.email,
        action: h.action,
        tableName: h.table,
        recordId: h.recordId ?? null,
        details: { ...h.details, source: "demo" },
        ipAddress: DEMO_REQUEST.ip,
        userAgent: DEMO_REQUEST.userAgent,
        createdAt: ago("hour", h.hoursAgo),
      })),
    );
    result.auditRowsWritten += history.length;
  }
  return result;
}
