import { sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getApplicantApplication } from "~/server/applications/applicant-application.server";
import { recordReadMarkAsOf } from "~/server/conversation/messages.server";
import { getDashboard } from "~/server/applications/dashboard.server";
import { applicationEvents, applicationMessages, bankAccounts, loanApplications, loanDocuments, requestItems } from "~/server/platform/db/schema.server";
import { applicationRow } from "../helpers/application-rows";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicants } from "../helpers/seed";

/**
 * The applicant's application page (/dashboard/applications/:id, issue 19) and the dashboard's What We
 * Need and unread counts: only the applicant's own application; another's id, a malformed one and
 * staff get nothing (the route answers 404); internal notes, staff names and sensitive values never
 * reach the page's data.
 */

const JANE = { id: "page-jane", name: "Jane Doe" };
const JOHN = { id: "page-john", name: "John Roe" };
const STAFF = { id: "page-staff", name: "Sam Staffer" };

const SSN_CIPHERTEXT = "enc:v1:c3NuLWNpcGhlcnRleHQ";
const ACCOUNT_CIPHERTEXT = "enc:v1:YWNjb3VudC1jaXBoZXJ0ZXh0";
const ROUTING_CIPHERTEXT = "enc:v1:cm91dGluZy1jaXBoZXJ0ZXh0";
const INTERNAL_NOTE = "Staff only: the DTI looks high, ask the co-signer";
const ADMIN_NOTES = "Reviewer notes: verify employer by phone";

const ago = (hours: number) => sql`now() - (${hours} * interval '1 hour')`;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

describe("the applicant's application page", () => {
  const database = useTestDatabase();
  const janeApp = randomUUID();
  const janeDecided = randomUUID();
  const johnApp = randomUUID();

  beforeAll(async () => {
    const db = database().db;
    await seedApplicants(db, [JANE, JOHN, STAFF].map((who) => ({ id: who.id, name: who.name, email: `${who.id}@example.com`, profile: true })));
    await db.insert(loanApplications).values([
      applicationRow(JANE.id, { id: janeApp, status: "under_review", ssnEncrypted: SSN_CIPHERTEXT, notes: ADMIN_NOTES, submittedAt: hoursAgo(48) }),
      applicationRow(JANE.id, { id: janeDecided, status: "denied", reviewedAt: hoursAgo(1), reviewedBy: STAFF.id, submittedAt: hoursAgo(200) }),
      applicationRow(JOHN.id, { id: johnApp, submittedAt: hoursAgo(10) }),
    ]);
    await db.insert(bankAccounts).values({
      userId: JANE.id,
      applicationId: janeApp,
      accountHolderName: "Jane Doe",
      bankName: "First Test Bank",
      accountNumber: ACCOUNT_CIPHERTEXT,
      routingNumber: ROUTING_CIPHERTEXT,
      accountNumberLast4: "6789",
      routingNumberLast2: "21",
    });
    await db.insert(loanDocuments).values({
      applicationId: janeApp,
      userId: JANE.id,
      documentType: "utility_bill",
      fileName: "utility_bill.pdf",
      filePath: `${JANE.id}/${janeApp}/utility_bill.pdf`,
      fileSize: 1200,
      mimeType: "application/pdf",
    });
    const event = (kind: "submitted" | "review_started" | "note" | "documents_requested" | "message", hours: number, side: "applicant" | "staff", extra: { summary?: string; internal?: boolean } = {}) => ({
      applicationId: janeApp,
      userId: JANE.id,
      kind,
      actorId: side === "staff" ? STAFF.id : JANE.id,
      actorSide: side,
      createdAt: ago(hours),
      ...extra,
    });
    await db.insert(applicationEvents).values([
      event("submitted", 48, "applicant"),
      event("review_started", 40, "staff"),
      event("note", 39, "staff", { summary: INTERNAL_NOTE, internal: true }),
      event("documents_requested", 30, "staff", { summary: "Pay Stub, Question" }),
      event("message", 20, "staff"),
    ]);
    // John's application has its own items and messages: none may appear on Jane's page or dashboard.
    await db.insert(requestItems).values([
      { requestId: randomUUID(), applicationId: janeApp, userId: JANE.id, kind: "pay_stub", note: "Your last two pay stubs", dueDate: "2099-01-31", requestedBy: STAFF.id, createdAt: ago(30) },
      { requestId: randomUUID(), applicationId: janeApp, userId: JANE.id, kind: "question", note: "Who is your employer?", dueDate: "2000-01-31", status: "rejected", rejectionReason: "Please name the company", requestedBy: STAFF.id, createdAt: ago(29.9) },
      { requestId: randomUUID(), applicationId: janeApp, userId: JANE.id, kind: "id_document", dueDate: "2099-01-31", status: "accepted", requestedBy: STAFF.id, createdAt: ago(29.8) },
      { requestId: randomUUID(), applicationId: janeDecided, userId: JANE.id, kind: "tax_return", dueDate: "2099-01-31", requestedBy: STAFF.id, createdAt: ago(150) },
      { requestId: randomUUID(), applicationId: johnApp, userId: JOHN.id, kind: "bank_statement", note: "John's statement", dueDate: "2099-01-31", requestedBy: STAFF.id },
    ]);
    await db.insert(applicationMessages).values([
      { applicationId: janeApp, userId: JANE.id, authorId: STAFF.id, authorSide: "staff", body: "Please send your pay stubs.", createdAt: ago(20) },
      { applicationId: janeApp, userId: JANE.id, authorId: JANE.id, authorSide: "applicant", body: "Will do <b>today</b>.", createdAt: ago(10) },
      { applicationId: janeApp, userId: JANE.id, authorId: STAFF.id, authorSide: "staff", body: "Thanks!", createdAt: ago(2) },
      { applicationId: johnApp, userId: JOHN.id, authorId: STAFF.id, authorSide: "staff", body: "A message for John only." },
    ]);
    await recordReadMarkAsOf(db, { applicationId: janeApp, readerId: JANE.id, at: ago(15) });
  });

  it("shows the applicant their own application: summary, documents, timeline, What We Need and messages", async () => {
    const page = await getApplicantApplication(janeApp, { id: JANE.id, isStaff: false }, database().db);
    expect(page).not.toBeNull();
    expect(page!.application).toMatchObject({ id: janeApp, status: "under_review", loanType: "personal", requestedAmount: 25_000 });
    expect(page!.open).toBe(true);
    expect(page!.documents.map((d) => d.fileName)).toEqual(["utility_bill.pdf"]);
    expect(page!.timeline.map((e) => e.kind)).toEqual(["message", "documents_requested", "review_started", "submitted"]);
    expect(page!.timeline.map((e) => e.actor)).toEqual(["Private Loans", "Private Loans", "Private Loans", "You"]);
    expect(page!.requestItems.map((i) => [i.kindLabel, i.status])).toEqual([
      ["Pay Stub", "requested"],
      ["Question", "rejected"],
      ["ID", "accepted"],
    ]);
    expect(page!.requestItems[1]).toMatchObject({ rejectionReason: "Please name the company", overdue: true });
    expect(page!.conversation.messages.map((m) => [m.author, m.body])).toEqual([
      ["Private Loans", "Please send your pay stubs."],
      ["You", "Will do <b>today</b>."],
      ["Private Loans", "Thanks!"],
    ]);
    expect(page!.conversation.unread).toBe(1);
  });

  it("never carries internal notes, staff names or ids, admin notes, or sensitive values", async () => {
    const page = await getApplicantApplication(janeApp, { id: JANE.id, isStaff: false }, database().db);
    const text = JSON.stringify(page);
    // Random ids can hold "6789" by chance (about one run in a hundred): they are read apart from the rest.
    const withoutIds = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>");
    expect(text).not.toContain(STAFF.id);
    for (const hidden of [INTERNAL_NOTE, ADMIN_NOTES, STAFF.name, "enc:v1", "6789", "1985-02-03", "John"]) expect(withoutIds, hidden).not.toContain(hidden);
    expect(page!.timeline.some((e) => e.internal || e.kind === "note")).toBe(false);
    // Only what the page shows: no SSN, bank, address or income fields at all.
    expect(Object.keys(page!.application).sort()).toEqual(["id", "loanType", "purpose", "requestedAmount", "status", "submittedAt"]);
  });

  it("answers nothing for another person's application, a malformed or unknown id, or staff", async () => {
    const db = database().db;
    expect(await getApplicantApplication(johnApp, { id: JANE.id, isStaff: false }, db)).toBeNull();
    expect(await getApplicantApplication(janeApp, { id: JOHN.id, isStaff: false }, db)).toBeNull();
    expect(await getApplicantApplication(randomUUID(), { id: JANE.id, isStaff: false }, db)).toBeNull();
    for (const bad of ["not-a-uuid", `${janeApp}x`, "", "' or 1=1 --", undefined, 42]) {
      expect(await getApplicantApplication(bad, { id: JANE.id, isStaff: false }, db)).toBeNull();
    }
    // Staff have their own page (second factor, audit); not this one, not even for an application they see there.
    expect(await getApplicantApplication(janeApp, { id: STAFF.id, isStaff: true }, db)).toBeNull();
    // An id in capitals is the same application.
    expect((await getApplicantApplication(janeApp.toUpperCase(), { id: JANE.id, isStaff: false }, db))?.application.id).toBe(janeApp);
  });

  it("marks a decided application closed to new requests and messages", async () => {
    const page = await getApplicantApplication(janeDecided, { id: JANE.id, isStaff: false }, database().db);
    expect(page!.open).toBe(false);
  });

  it("lists open items of applications under review on the dashboard, soonest due first, with unread counts per card", async () => {
    const db = database().db;
    const dashboard = await getDashboard(JANE.id, JANE.name, db);
    // Requested and rejected items only (not accepted), only of open applications (not the denied one), only Jane's.
    expect(dashboard.whatWeNeed.map((i) => [i.kindLabel, i.status, i.dueDate, i.overdue])).toEqual([
      ["Question", "rejected", "2000-01-31", true],
      ["Pay Stub", "requested", "2099-01-31", false],
    ]);
    expect(dashboard.whatWeNeed.every((i) => i.applicationId === janeApp)).toBe(true);
    const unread = Object.fromEntries(dashboard.applications.map((a) => [a.id, a.unreadMessages]));
    expect(unread).toEqual({ [janeApp]: 1, [janeDecided]: 0 });

    const johns = await getDashboard(JOHN.id, JOHN.name, db);
    expect(johns.whatWeNeed.map((i) => i.kindLabel)).toEqual(["Bank Statement"]);
    expect(johns.applications.map((a) => a.unreadMessages)).toEqual([1]);
    expect(JSON.stringify(johns)).not.toContain("Pay Stub");
  });
});
