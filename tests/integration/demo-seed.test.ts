import { expectedFundingDate } from "~/domain/funding";
import { and, count, eq, inArray } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { delinquencyBucket } from "~/domain/delinquency";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN_DEFAULTS, DEMO_APPLICANT_PASSWORD, DEMO_APPLICANTS, DEMO_CONTACT_MESSAGES } from "../../scripts/demo/data";
import { demoPdf } from "../../scripts/demo/documents";
import { DEMO_STAFF, seedDemo } from "../../scripts/demo/seed";
import { sniffDocumentType } from "~/domain/upload-rules";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { getAuth } from "~/server/accounts/auth.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { decryptField, isEncrypted } from "~/server/platform/crypto/field-encryption.server";
import {
  applicationEvents,
  applicationMessages,
  approvedLoans,
  auditLog,
  bankAccounts,
  contactMessages,
  emailOutbox,
  loanApplications,
  loanDocuments,
  loanOffers,
  loanPayments,
  autopayAuthorizations,
  profiles,
  signedAgreements,
  requestItems,
  testimonials,
  user,
  userRoles,
  loanFlags,
  loanModifications,
  loanProtections,
  paymentPromises,
} from "~/server/platform/db/schema.server";
import { unreadCounts } from "~/server/conversation/messages.server";
import { listTimeline } from "~/server/conversation/timeline.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { listApprovedTestimonials } from "~/server/public-site/testimonials.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { useTestDatabase } from "../helpers/test-db";
import { sanctionsClearance } from "~/server/sanctions/index.server";

/** `npm run demo`'s seeding function against a fresh database and a temporary storage folder. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-demo-"));
const storageDir = path.join(dataDir, "storage");
beforeAll(() => setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "s".repeat(48), PWNED_PASSWORDS_URL: "off" })));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("demo seed", () => {
  const database = useTestDatabase();
  const storage = createLocalStorage(storageDir);

  async function counts() {
    const db = database().db;
    const n = async (table: PgTable) => Number((await db.select({ n: count() }).from(table))[0]!.n);
    return {
      users: await n(user),
      roles: await n(userRoles),
      applications: await n(loanApplications),
      documents: await n(loanDocuments),
      bankAccounts: await n(bankAccounts),
      approvedLoans: await n(approvedLoans),
      testimonials: await n(testimonials),
      messages: await n(contactMessages),
      audit: await n(auditLog),
      events: await n(applicationEvents),
      requestItems: await n(requestItems),
      conversationMessages: await n(applicationMessages),
      outbox: await n(emailOutbox),
      files: (await storage.list()).length,
    };
  }

  let first: Awaited<ReturnType<typeof seedDemo>>;

  it("creates the admin, applicants, applications in every status, testimonials and messages", async () => {
    first = await seedDemo(database(), { storage });
    expect(first.admin).toEqual({ email: DEMO_ADMIN_DEFAULTS.email, created: true, promoted: true });
    // Issue 22: a demo loan officer and a demo auditor beside the admin.
    expect(first.staff.map((s) => [s.email, s.role, s.created])).toEqual(DEMO_STAFF.map((s) => [s.email, s.role, true]));
    const staffRoles = await database()
      .db
      .select({ email: user.email, role: userRoles.role })
      .from(userRoles)
      .innerJoin(user, eq(user.id, userRoles.userId))
      .where(inArray(user.email, DEMO_STAFF.map((s) => s.email)));
    expect(new Map(staffRoles.map((r) => [r.email, r.role]))).toEqual(new Map(DEMO_STAFF.map((s) => [s.email, s.role])));
    expect(first.applicantsCreated).toBe(DEMO_APPLICANTS.length);
    expect(DEMO_APPLICANTS.length).toBeGreaterThanOrEqual(6);
    expect(DEMO_APPLICANTS.length).toBeLessThanOrEqual(8);

    const db = database().db;
    const apps = await db.select().from(loanApplications);
    const statuses = new Set(apps.map((a) => a.status));
    expect([...statuses].sort()).toEqual(["approved", "denied", "incomplete", "pending", "under_review"]);
    expect(first.applicationsCreated).toBe(apps.length);

    // Approved ones have their offer (issue 20); the signed ones their agreement and active loan, the
    // others an open offer (one a Counteroffer); denied ones their reasons; decided ones a review time.
    const loans = await db.select().from(approvedLoans);
    const offers = await db.select().from(loanOffers);
    const approved = apps.filter((a) => a.status === "approved");
    expect(offers.map((o) => o.applicationId).sort()).toEqual(approved.map((a) => a.id).sort());
    const signed = offers.filter((o) => o.status === "signed");
    expect(signed.length).toBeGreaterThan(0);
    expect(offers.some((o) => o.status === "offered" && o.isCounteroffer)).toBe(true);
    expect(offers.some((o) => o.status === "declined")).toBe(true);
    expect(loans.map((l) => l.offerId).sort()).toEqual(signed.map((o) => o.id).sort());
    for (const loan of loans) expect(["active", "paid_off", "awaiting_funding", "charged_off"]).toContain(loan.status);
    // One signed loan awaits funding; the serviced ones were funded (a settled credit each).
    expect(loans.filter((l) => l.status === "awaiting_funding")).toHaveLength(1);

    // Servicing (issue 21): a Current, a Late (missed installment, one late fee) and a Paid in Full loan.
    const states = await Promise.all(loans.map(async (l) => ({ loan: l, ledger: (await loadLedger(l.id, db))! })));
    const byState = (s: string) => states.filter((x) => x.ledger.state.status === s);
    expect(byState("current").length).toBeGreaterThan(0);
    expect(byState("current").some((x) => x.ledger.payments.length >= 2)).toBe(true);
    // The late loan that paid once and missed the next: one late fee so far.
    const late = byState("late");
    const missedOne = late.filter((x) => x.ledger.payments.length > 0);
    expect(missedOne).toHaveLength(1);
    expect(missedOne[0]!.ledger.fees).toHaveLength(1);
    expect(missedOne[0]!.ledger.state.daysPastDue).toBeGreaterThan(15);
    // Late loans in every delinquency bucket, each with a late fee for every installment past its grace period.
    const buckets = new Set(late.map((x) => delinquencyBucket(x.ledger.state.daysPastDue)));
    expect([...buckets].sort()).toEqual(["1-29", "120+", "30-59", "60-89", "90-119"]);
    // Collections at work: a broken promise (flagged), a signed payment plan (the loan serviced by it), a
    // servicemember's 6 % cap, and a charged-off loan with a recovery after the charge-off.
    const promises = await db.select().from(paymentPromises);
    expect(promises.map((p) => p.status)).toEqual(["broken"]);
    expect((await db.select().from(loanFlags).where(eq(loanFlags.kind, "broken_promise"))).map((f) => f.loanId)).toEqual([promises[0]!.loanId]);
    const plans = await db.select().from(loanModifications).where(eq(loanModifications.status, "signed"));
    expect(plans).toHaveLength(1);
    const planned = states.find((x) => x.loan.id === plans[0]!.loanId)!;
    expect(planned.ledger.terms.changes).toHaveLength(1);
    expect(planned.ledger.terms.changes![0]!.kind).toBe("payment_plan");
    const protections = await db.select().from(loanProtections);
    expect(protections.map((p) => p.kind)).toEqual(["servicemember"]);
    expect(states.find((x) => x.loan.id === protections[0]!.loanId)!.ledger.terms.rateCaps).toHaveLength(1);
    const chargedOff = states.filter((x) => x.ledger.state.status === "charged_off");
    expect(chargedOff).toHaveLength(1);
    expect(chargedOff[0]!.loan.status).toBe("charged_off");
    expect(chargedOff[0]!.ledger.state.recoveredCents).toBe(15_000);
    const paid = byState("paid_in_full");
    expect(paid).toHaveLength(1);
    expect(paid[0]!.loan).toMatchObject({ status: "paid_off", nextDueDate: null });
    expect(paid[0]!.loan.paidOffAt).toBeInstanceOf(Date);
    expect(paid[0]!.loan.balanceCents).toBe(0);
    const servicingMail = await db.select().from(emailOutbox);
    expect(servicingMail.some((m) => m.template === "late-notice")).toBe(true);
    expect(servicingMail.some((m) => m.template === "loan-paid-in-full")).toBe(true);
    // One current demo loan has autopay on, set up by its borrower, with its next debit queued.
    const autopays = await db.select().from(autopayAuthorizations).where(eq(autopayAuthorizations.status, "active"));
    expect(autopays).toHaveLength(1);
    const queued = await db.select().from(loanPayments).where(and(eq(loanPayments.autopayAuthorizationId, autopays[0]!.id), eq(loanPayments.status, "pending")));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ paymentType: "R", bankAccountId: autopays[0]!.bankAccountId });
    expect((await db.select().from(signedAgreements)).length).toBe(signed.length);
    for (const a of apps.filter((x) => x.status === "denied")) {
      expect(a.decisionReasons?.length).toBeGreaterThan(0);
      expect(a.reviewedAt).toBeInstanceOf(Date);
    }
    for (const a of apps.filter((x) => x.status === "under_review")) expect(a.notes).toBeTruthy();
    // Closed as incomplete with its notice of action taken, once its request was past due.
    const incomplete = apps.filter((x) => x.status === "incomplete");
    expect(incomplete).toHaveLength(1);
    expect(incomplete[0]!.reviewedAt).toBeInstanceOf(Date);
    const [adminUser] = await db.select().from(user).where(eq(user.email, DEMO_ADMIN_DEFAULTS.email));
    for (const a of [...approved, ...apps.filter((x) => x.status === "denied")]) expect(a.reviewedBy).toBe(adminUser!.id);

    // Every e-mail is on example.com; applicants can sign in with the printed password.
    const users = await db.select().from(user);
    expect(users.every((u) => u.email.endsWith("@example.com"))).toBe(true);
    expect(users.every((u) => u.emailVerified)).toBe(true);
    const signIn = await getAuth(database()).api.signInEmail({ body: { email: DEMO_APPLICANTS[0]!.email, password: DEMO_APPLICANT_PASSWORD } });
    expect(signIn.user.email).toBe(DEMO_APPLICANTS[0]!.email);
    const [profile] = await db.select().from(profiles).where(eq(profiles.id, signIn.user.id));
    expect(profile).toMatchObject({ fullName: DEMO_APPLICANTS[0]!.name, phone: "6025550114", state: "AZ", zipCode: "85016" });

    // Testimonials: some approved (and published), some pending.
    const rows = await db.select().from(testimonials);
    expect(rows.some((t) => t.status === "approved")).toBe(true);
    expect(rows.some((t) => t.status === "pending")).toBe(true);
    const published = (await listApprovedTestimonials({}, db)).map((t) => t.id);
    expect(rows.filter((t) => t.status === "approved").every((t) => published.includes(t.id))).toBe(true);

    const messages = await db.select().from(contactMessages);
    expect(messages).toHaveLength(DEMO_CONTACT_MESSAGES.length);
    expect(new Set(messages.map((m) => m.status))).toEqual(new Set(["new", "read", "archived"]));

    // Audit: decisions, moderation, notes, and some history spread over the week.
    const audit = await db.select().from(auditLog);
    const actions = new Set(audit.map((r) => r.action));
    for (const action of ["application.approve", "application.deny", "application.note", "testimonial.moderate", "client.view"]) expect(actions).toContain(action);
    const oldest = Math.min(...audit.map((r) => r.createdAt.getTime()));
    expect(Date.now() - oldest).toBeGreaterThan(72 * 3600_000);
  });

  it("dates every demo loan in order: submitted < decided < offered < signed < started < first payment", async () => {
    const db = database().db;
    const loans = await db.select().from(approvedLoans);
    expect(loans.length).toBeGreaterThanOrEqual(3);
    for (const loan of loans) {
      const [app] = await db.select().from(loanApplications).where(eq(loanApplications.id, loan.applicationId));
      const [offer] = await db.select().from(loanOffers).where(eq(loanOffers.id, loan.offerId!));
      const [agreement] = await db.select().from(signedAgreements).where(eq(signedAgreements.offerId, loan.offerId!));
      const payments = await db.select().from(loanPayments).where(eq(loanPayments.loanId, loan.id));
      const firstPayment = payments.map((p) => p.receivedOn!).sort()[0]!;
      const what = `${app!.firstName} ${app!.lastName}`;
      const t = (d: Date | null | undefined) => d!.getTime();
      expect(t(app!.submittedAt), `${what}: submitted before decided`).toBeLessThan(t(app!.reviewedAt));
      expect(t(app!.reviewedAt), `${what}: decided before offered`).toBeLessThan(t(offer!.createdAt));
      expect(t(offer!.createdAt), `${what}: offered before signed`).toBeLessThan(t(agreement!.signedAt));
      expect(t(offer!.decidedAt), `${what}: the offer's decision is the signing`).toBe(t(agreement!.signedAt));
      // Installments count from the signing day; the serviced demo loans were funded on the expected funding day (the first banking day after it).
      expect(loan.startDate, `${what}: starts on the signing day`).toBe(agreement!.signedAt.toISOString().slice(0, 10));
      if (loan.status === "awaiting_funding") {
        // The demo's loan signed two days ago and not funded yet: no credit settled, nothing paid.
        expect([loan.fundedOn, payments.length], what).toEqual([null, 0]);
        continue;
      }
      expect(loan.fundedOn, `${what}: funded on the expected funding day`).toBe(expectedFundingDate(loan.startDate));
      expect(loan.approvalDate.getTime(), `${what}: approved when signed`).toBe(t(agreement!.signedAt));
      // A loan behind from its first installment has no payment yet.
      if (firstPayment !== undefined) expect(firstPayment > loan.startDate, `${what}: first payment ${firstPayment} after the start ${loan.startDate}`).toBe(true);
      else expect(loan.nextDueDate! < new Date().toISOString().slice(0, 10), `${what}: unpaid only while behind`).toBe(true);
      // The timeline the applicant and staff read says the same, in the same order.
      const events = await db.select().from(applicationEvents).where(eq(applicationEvents.applicationId, app!.id));
      const at = (kind: string) => t(events.find((e) => e.kind === kind)?.createdAt);
      expect(at("submitted")).toBeLessThan(at("approved"));
      expect(at("approved")).toBeLessThan(at("offer_made"));
      expect(at("offer_made")).toBeLessThan(at("esign_consented"));
      expect(at("esign_consented")).toBeLessThan(at("agreement_signed"));
    }
  });

  it("stores SSNs and bank numbers only encrypted, with the masked display columns", async () => {
    const db = database().db;
    const apps = await db.select().from(loanApplications);
    for (const app of apps) {
      expect(isEncrypted(app.ssnEncrypted)).toBe(true);
      expect(decryptField(app.ssnEncrypted!, ENCRYPTION_PURPOSES.ssn)).toMatch(/^(078051120|219099999)$/);
    }
    const accounts = await db.select().from(bankAccounts);
    expect(accounts).toHaveLength(apps.length);
    for (const account of accounts) {
      expect(isEncrypted(account.accountNumber)).toBe(true);
      expect(isEncrypted(account.routingNumber)).toBe(true);
      const number = decryptField(account.accountNumber, ENCRYPTION_PURPOSES.accountNumber);
      const routing = decryptField(account.routingNumber, ENCRYPTION_PURPOSES.routingNumber);
      expect(number).toMatch(/^\d{10,17}$/);
      expect(routing).toMatch(/^\d{9}$/);
      expect(account.accountNumberLast4).toBe(number.slice(-4));
      expect(account.routingNumberLast2).toBe(routing.slice(-2));
      // A valid ABA checksum.
      const d = routing.split("").map(Number);
      expect((3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10).toBe(0);
    }
    // One primary account per applicant (the first one they gave).
    const primaries = accounts.filter((a) => a.isPrimary).map((a) => a.userId);
    expect(new Set(primaries).size).toBe(primaries.length);
    expect(new Set(primaries).size).toBe(DEMO_APPLICANTS.length);
    // No plaintext SSN anywhere in the applications table.
    expect(JSON.stringify(apps)).not.toMatch(/078051120|219099999|078-05-1120|219-09-9999/);
  });

  it("writes every document as a real file in storage, at the submission's key", async () => {
    const db = database().db;
    const docs = await db.select().from(loanDocuments);
    const apps = await db.select({ id: loanApplications.id, userId: loanApplications.userId, loanType: loanApplications.loanType }).from(loanApplications);
    expect(docs.length).toBe(first.documentsStored);
    for (const app of apps) {
      // The wizard's documents; answers to requests (request_item_id set) are checked below.
      const types = docs.filter((d) => d.applicationId === app.id && d.requestItemId === null).map((d) => d.documentType).sort();
      const expected = ["bank_statement_1", "bank_statement_2", "bank_statement_3", "id_card_back", "id_card_front", "signature", "utility_bill"];
      expect(types).toEqual(app.loanType === "hard-money" ? [...expected, "collateral_docs"].sort() : expected);
    }
    for (const doc of docs) {
      expect(doc.filePath.startsWith(`${doc.userId}/${doc.applicationId}/`)).toBe(true);
      const stored = await storage.get(doc.filePath);
      expect(stored, doc.filePath).not.toBeNull();
      const chunks: Buffer[] = [];
      for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      expect(bytes.length).toBe(doc.fileSize);
      expect(sniffDocumentType(bytes)?.mime).toBe(doc.mimeType);
    }
    const pdf = demoPdf("Title (with parens)", ["Line \\ one"]).toString("latin1");
    expect(pdf).toContain("(Title \\(with parens\\)) Tj");
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xref, xref + 4)).toBe("xref");
  });

  it("gives every application its timeline: submitted, review started, decided, internal notes for staff only", async () => {
    const db = database().db;
    const apps = await db.select().from(loanApplications);
    const events = await db.select().from(applicationEvents);
    for (const app of apps) {
      const kinds = events.filter((e) => e.applicationId === app.id).map((e) => e.kind);
      expect(kinds.filter((k) => k === "submitted"), app.id).toHaveLength(1);
      if (app.status === "under_review") expect(kinds).toContain("review_started");
      if (app.status === "approved") expect(kinds).toContain("approved");
      if (app.status === "denied") expect(kinds).toContain("denied");
      if (app.status === "incomplete") expect(kinds).toEqual(expect.arrayContaining(["review_started", "documents_requested", "closed_incomplete"]));
      const submitted = events.find((e) => e.applicationId === app.id && e.kind === "submitted")!;
      expect(submitted.createdAt.getTime()).toBe(app.submittedAt.getTime());
      for (const e of events.filter((x) => x.applicationId === app.id)) {
        expect(e.userId).toBe(app.userId);
        expect(e.createdAt.getTime()).toBeGreaterThanOrEqual(app.submittedAt.getTime());
      }
    }
    // Staff notes on the applications under review are internal: staff see them, the applicant does not.
    const reviewed = apps.find((a) => a.status === "under_review" && a.notes)!;
    const [adminUser] = await db.select().from(user).where(eq(user.email, DEMO_ADMIN_DEFAULTS.email));
    const staffView = await listTimeline(reviewed.id, { id: adminUser!.id, side: "staff" }, db);
    const applicantView = await listTimeline(reviewed.id, { id: reviewed.userId, side: "applicant" }, db);
    expect(staffView.some((e) => e.internal && e.summary === reviewed.notes)).toBe(true);
    expect(applicantView.some((e) => e.internal || e.kind === "note")).toBe(false);
    expect(JSON.stringify(applicantView)).not.toContain(reviewed.notes!);
    expect(JSON.stringify(applicantView)).not.toContain(DEMO_ADMIN_DEFAULTS.name);
    // Newest first, each entry a real instant.
    const times = applicantView.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("has What We Need items in every status on at least two applications, with answers stored like uploads", async () => {
    const db = database().db;
    const items = await db.select().from(requestItems);
    expect(first.requestItemsCreated).toBe(items.length);
    expect(new Set(items.map((i) => i.applicationId)).size).toBeGreaterThanOrEqual(2);
    const today = new Date().toISOString().slice(0, 10);
    const apps = await db.select().from(loanApplications);
    const open = new Set(apps.filter((a) => a.status === "pending" || a.status === "under_review").map((a) => a.id));
    const requested = items.filter((i) => i.status === "requested");
    expect(requested.length).toBeGreaterThan(0);
    // Open applications' requests are still due; the one closed as incomplete has its overdue item.
    expect(requested.filter((i) => open.has(i.applicationId)).every((i) => i.dueDate > today && i.answeredAt === null)).toBe(true);
    expect(requested.some((i) => !open.has(i.applicationId) && i.dueDate < today)).toBe(true);
    const rejected = items.filter((i) => i.status === "rejected");
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected.every((i) => (i.rejectionReason ?? "").length > 10 && i.reviewedBy !== null)).toBe(true);
    expect(items.some((i) => i.status === "accepted" && i.reviewedAt !== null)).toBe(true);
    expect(items.some((i) => i.kind === "question" && i.status === "received" && (i.replyText ?? "").length > 0)).toBe(true);

    // Items are only on applications under review (or closed as incomplete for want of one), each application's own applicant.
    for (const item of items) {
      const app = apps.find((a) => a.id === item.applicationId)!;
      expect(["pending", "under_review", "incomplete"]).toContain(app.status);
      expect(item.userId).toBe(app.userId);
    }

    // Uploaded answers are documents of the application, tied to their item, with a real file.
    const answers = (await db.select().from(loanDocuments)).filter((d) => d.requestItemId !== null);
    expect(answers.length).toBeGreaterThanOrEqual(2);
    for (const doc of answers) {
      const item = items.find((i) => i.id === doc.requestItemId)!;
      expect(doc.applicationId).toBe(item.applicationId);
      expect(doc.documentType).toBe(item.kind);
      expect(await storage.exists(doc.filePath)).toBe(true);
    }

    // The timeline tells the same story.
    const events = await db.select().from(applicationEvents);
    for (const kind of ["documents_requested", "document_received", "reply_received", "document_accepted", "document_rejected"] as const) {
      expect(events.some((e) => e.kind === kind), kind).toBe(true);
    }
    const rejection = events.find((e) => e.kind === "document_rejected")!;
    expect(rejection.summary).toContain(rejected[0]!.rejectionReason!);
  });

  it("has conversations with messages from both sides, some unread on each side", async () => {
    const db = database().db;
    const messages = await db.select().from(applicationMessages);
    expect(first.conversationMessagesCreated).toBe(messages.length);
    const conversations = new Set(messages.map((m) => m.applicationId));
    expect(conversations.size).toBeGreaterThanOrEqual(2);
    expect(new Set(messages.map((m) => m.authorSide))).toEqual(new Set(["applicant", "staff"]));
    const apps = await db.select().from(loanApplications);
    let applicantUnread = 0;
    for (const app of apps.filter((a) => conversations.has(a.id))) {
      applicantUnread += (await unreadCounts([app.id], { id: app.userId, side: "applicant" }, db)).get(app.id) ?? 0;
    }
    expect(applicantUnread).toBeGreaterThan(0);
    const [adminUser] = await db.select().from(user).where(eq(user.email, DEMO_ADMIN_DEFAULTS.email));
    const staffUnread = await unreadCounts([...conversations], { id: adminUser!.id, side: "staff" }, db);
    expect([...staffUnread.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // Every message has its timeline entry, without the message's text.
    const events = await db.select().from(applicationEvents);
    expect(events.filter((e) => e.kind === "message")).toHaveLength(messages.length);
    for (const m of messages) expect(events.some((e) => e.summary?.includes(m.body.slice(0, 30)))).toBe(false);
  });

  it("screens the demo applications against the sample sanctions list: one potential match, the others clear", async () => {
    expect(first.sanctionsMatches).toBe(1);
    const apps = await database().db.select({ id: loanApplications.id, firstName: loanApplications.firstName, lastName: loanApplications.lastName, status: loanApplications.status }).from(loanApplications);
    const states = await Promise.all(apps.map(async (a) => ({ ...a, clearance: await sanctionsClearance(a.id, database().db) })));
    const flagged = states.filter((a) => a.clearance.state === "potential_match");
    expect(flagged.map((a) => `${a.firstName} ${a.lastName} (${a.status})`)).toEqual(["Robert Kowalski (pending)"]);
    // Every other open application was screened against the loaded list and is clear.
    for (const a of states.filter((x) => x.status === "pending" || x.status === "under_review")) expect(["clear", "potential_match"], `${a.firstName} ${a.lastName}`).toContain(a.clearance.state);
  });

  it("a second run adds nothing", async () => {
    const before = await counts();
    const second = await seedDemo(database(), { storage });
    expect(second).toMatchObject({
      applicantsCreated: 0,
      applicationsCreated: 0,
      documentsStored: 0,
      testimonialsCreated: 0,
      messagesCreated: 0,
      requestItemsCreated: 0,
      conversationMessagesCreated: 0,
      auditRowsWritten: 0,
    });
    expect(second.admin).toMatchObject({ created: false, promoted: false });
    expect(second.staff.every((s) => !s.created)).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it("has a returned R01 debit on the late demo loan, its retry pending in a RETRY PYMT entry still to come", async () => {
    const db = database().db;
    const returned = await db.select().from(loanPayments).where(eq(loanPayments.status, "returned"));
    expect(returned.map((p) => p.returnCode)).toEqual(["R01"]);
    const retries = await db.select().from(loanPayments).where(eq(loanPayments.retryOf, returned[0]!.id));
    expect(retries).toEqual([expect.objectContaining({ status: "pending", retryNumber: 1, achBatchId: null, reference: `${returned[0]!.reference}-R1` })]);
    expect(retries[0]!.scheduledOn! > returned[0]!.returnedOn!).toBe(true);
  });
});
