import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION_LIMITS } from "~/domain/conversation-enums";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { messageAction, type MessageActor } from "~/server/conversation/message-actions.server";
import { loadConversation, markConversationRead, sendMessage, totalUnread, unreadCount, unreadCounts } from "~/server/conversation/messages.server";
import { listTimeline } from "~/server/conversation/timeline.server";
import {
  applicationMessages,
  auditLog,
  conversationNotices,
  conversationReads,
  emailOutbox,
  loanApplications,
  user as userTable,
} from "~/server/platform/db/schema.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { defaultTestTarget, useTestDatabase } from "../helpers/test-db";
import { isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedUser } from "../helpers/seed";

/**
 * Messages (issue 19) against a real database: both sides write, another applicant's application is not
 * found, the text's limits and control characters, HTML kept as text, the at-most-hourly e-mail (also
 * under 20 parallel sends) that never carries the text, read marks, unread counts and the header total.
 */

setUpTestConfig("messages", { APP_SECRET: "m".repeat(48), PUBLIC_URL: "https://loans.example.com", LENDER_NOTIFY_EMAIL: "lender.inbox@example.com" });

const admin: AuditActor = { id: "staff-ada", name: "Ada Admin", email: "ada@example.com" };
const bob: AuditActor = { id: "staff-bob", name: "Bob Staff", email: "bob@example.com" };
const jane = { id: "applicant-jane", name: "Jane Doe", email: "jane.account@example.com" };
const john = { id: "applicant-john", name: "John Roe", email: "john.account@example.com" };
const info = { ip: "203.0.113.7", userAgent: "vitest" };
const ORIGIN = "http://localhost:3000";

const asJane = { id: jane.id, side: "applicant" as const };
const asJohn = { id: john.id, side: "applicant" as const };
const asAda = { id: admin.id, side: "staff" as const, actor: admin };
const asBob = { id: bob.id, side: "staff" as const, actor: bob };

describe("Messages", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;

  async function newApplication(owner: { id: string }, status: "pending" | "under_review" | "approved" = "pending") {
    const [row] = await db()
      .insert(loanApplications)
      .values(applicationRow(owner.id, { status, ...(status === "approved" ? { reviewedAt: new Date() } : {}), firstName: "Janet", lastName: "Quintessa" }))
      .returning({ id: loanApplications.id });
    return row!.id;
  }
  const mailsFor = (to: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, "new-message")));
  const post = (appId: string, fields: [string, string][], area = "dashboard") =>
    new Request(`${ORIGIN}/${area}/applications/${appId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams(fields).toString(),
    });
  const act = (appId: string, fields: [string, string][], writer: MessageActor) => messageAction(post(appId, fields, writer.side === "staff" ? "admin" : "dashboard"), appId, { actor: writer, request: info });
  /** Moves the hourly notice back, as if an hour had passed. */
  const hourLater = (appId: string) => db().update(conversationNotices).set({ lastSentAt: new Date(Date.now() - 61 * 60_000) }).where(eq(conversationNotices.applicationId, appId));

  beforeAll(async () => {
    for (const who of [jane, john, admin, bob]) await seedUser(db(), { id: who.id, name: who.name, email: who.email, profile: true });
  });

  it("both sides write; each sees the other's messages, staff by name, the applicant sees the lender", async () => {
    const appId = await newApplication(jane);
    const a = await act(appId, [["intent", "send"], ["body", "  Hello, when will I hear back?\r\nThanks  "]], asJane);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ ok: true, intent: "send", toast: { type: "success", title: "Message sent" } });
    const b = await act(appId, [["intent", "send"], ["body", "We are reviewing it this week."]], asAda);
    expect(b.status).toBe(200);

    const forJane = await loadConversation(appId, asJane);
    expect(forJane.messages.map((m) => [m.author, m.body, m.mine])).toEqual([
      ["You", "Hello, when will I hear back?\nThanks", true],
      ["Private Loans", "We are reviewing it this week.", false],
    ]);
    const forBob = await loadConversation(appId, asBob);
    expect(forBob.messages.map((m) => m.author)).toEqual(["Jane Doe", "Ada Admin"]);

    // Timeline: a Message entry per message, never the text.
    const timeline = await listTimeline(appId, asJane);
    const messages = timeline.filter((e) => e.kind === "message");
    expect(messages).toHaveLength(2);
    expect(messages.map((e) => e.actor)).toEqual(["Private Loans", "You"]);
    expect(JSON.stringify(timeline)).not.toContain("hear back");
    expect(JSON.stringify(timeline)).not.toContain("this week");

    // Staff sends are audited, without the text.
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "message.send"), eq(auditLog.recordId, appId)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).toBe(admin.id);
    expect(JSON.stringify(audits[0]!.details)).not.toContain("this week");
  });

  it("another applicant's application, an unknown one and a malformed id are not found (nothing stored)", async () => {
    const appId = await newApplication(jane);
    const other = await act(appId, [["intent", "send"], ["body", "Let me in"]], asJohn);
    expect(other.status).toBe(404);
    expect(other.body.toast?.description).toBe("This application could not be found.");
    expect((await act(appId, [["intent", "read"]], asJohn)).status).toBe(404);
    expect((await act("5b0c1a40-0000-4000-8000-000000000000", [["intent", "send"], ["body", "x"]], asAda)).status).toBe(404);
    expect((await act("not-a-uuid", [["intent", "send"], ["body", "x"]], asJane)).status).toBe(404);
    await expect(sendMessage(appId, "direct", { actor: asJohn, request: {} })).rejects.toSatisfy((e) => isAppError(e, "message"));
    expect(await db().select().from(applicationMessages).where(eq(applicationMessages.applicationId, appId))).toHaveLength(0);
    expect(await db().select().from(conversationReads).where(eq(conversationReads.readerId, john.id))).toHaveLength(0);
  });

  it("refuses empty, 5,001-character and control-character messages with a 400 naming the field; 5,000 is fine", async () => {
    const appId = await newApplication(jane);
    const empty = await act(appId, [["intent", "send"], ["body", "   \n  "]], asJane);
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors?.body).toEqual(["Write a message before sending"]);
    const missing = await act(appId, [["intent", "send"]], asJane);
    expect(missing.status).toBe(400);

    const tooLong = await act(appId, [["intent", "send"], ["body", "a".repeat(CONVERSATION_LIMITS.messageMaxLength + 1)]], asJane);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fieldErrors?.body).toEqual(["A message must be at most 5,000 characters"]);
    for (const bad of ["nul\u0000byte", "bell\u0007", "esc\u001b[31m", "c1\u0085"]) {
      const r = await act(appId, [["intent", "send"], ["body", bad]], asAda);
      expect(r.status).toBe(400);
      expect(r.body.fieldErrors?.body?.[0]).toMatch(/unsupported characters/);
    }
    const unknown = await act(appId, [["intent", "delete"]], asJane);
    expect(unknown.status).toBe(400);
    expect(unknown.body.toast?.description).toBe("Unknown action.");
    expect(await db().select().from(applicationMessages).where(eq(applicationMessages.applicationId, appId))).toHaveLength(0);

    const tabs = await act(appId, [["intent", "send"], ["body", "a".repeat(CONVERSATION_LIMITS.messageMaxLength - 4) + "\t\nzz"]], asJane);
    expect(tabs.status).toBe(200);
    const [stored] = await db().select().from(applicationMessages).where(eq(applicationMessages.applicationId, appId));
    expect(stored!.body).toHaveLength(CONVERSATION_LIMITS.messageMaxLength);
  });

  it("refuses an oversized form with 413 and too many sends from one person with 429 (Retry-After), storing nothing more", async () => {
    const appId = await newApplication(jane);
    const big = await act(appId, [["intent", "send"], ["body", "😀".repeat(20_000)]], asJane);
    expect(big.status).toBe(413);
    const ann = { id: "applicant-throttled", side: "applicant" as const };
    await seedApplicant(db(), { id: ann.id, name: "Throttled", email: "throttled@example.com", profile: true });
    const own = await newApplication(ann);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await act(own, [["intent", "send"], ["body", `Message ${i}`]], ann)).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    const refused = await act(own, [["intent", "send"], ["body", "One too many"]], ann);
    expect(refused.status).toBe(429);
    expect(refused.headers?.["Retry-After"]).toMatch(/^\d+$/);
    expect(refused.body.toast?.description).toMatch(/Too many attempts/);
    expect(await db().select().from(applicationMessages).where(eq(applicationMessages.applicationId, own))).toHaveLength(60);
  });

  it("stores HTML exactly as typed (text, never markup)", async () => {
    const appId = await newApplication(jane);
    const html = `<script>alert(1)</script><img src=x onerror="alert(2)"> & <b>bold</b>`;
    expect((await act(appId, [["intent", "send"], ["body", html]], asJane)).status).toBe(200);
    const view = await loadConversation(appId, asAda);
    expect(view.messages[0]!.body).toBe(html);
  });

  it("e-mails the other side at most once per conversation per hour, never with the text, even with 20 parallel sends", async () => {
    const appId = await newApplication(jane);
    const secret = "My account number is 000123456789";
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => sendMessage(appId, `${secret} (${i})`, { actor: asJane, request: info }).catch((e: unknown) => e)));
    expect(results.every((r) => !(r instanceof Error))).toBe(true);
    expect(await db().select().from(applicationMessages).where(eq(applicationMessages.applicationId, appId))).toHaveLength(20);
    const lender = (await mailsFor("lender.inbox@example.com")).filter((m) => m.textBody.includes(appId));
    expect(lender).toHaveLength(1);
    const mail = lender[0]!;
    expect(mail.subject).toBe("Private Loans: You have a new message");
    for (const body of [mail.textBody, mail.htmlBody!]) {
      expect(body).toContain(`https://loans.example.com/admin/applications/${appId}`);
      expect(body).not.toContain("000123456789");
      expect(body).not.toContain("account number");
      expect(body).not.toContain("Janet");
      expect(body).not.toContain("Jane Doe");
    }
    // The applicant side has its own hourly notice: the first staff reply e-mails them, the next does not.
    await sendMessage(appId, "Thanks, noted.", { actor: asAda, request: info });
    await sendMessage(appId, "One more thing.", { actor: asBob, request: info });
    const toJane = (await mailsFor(jane.email)).filter((m) => m.textBody.includes(appId));
    expect(toJane).toHaveLength(1);
    expect(toJane[0]!.textBody).toContain(`https://loans.example.com/dashboard/applications/${appId}`);
    expect(toJane[0]!.textBody).not.toContain("Thanks, noted");
    expect(toJane[0]!.textBody).not.toContain("Ada");

    // An hour later, the next message e-mails again.
    await hourLater(appId);
    await sendMessage(appId, "Still there?", { actor: asJane, request: info });
    expect((await mailsFor("lender.inbox@example.com")).filter((m) => m.textBody.includes(appId))).toHaveLength(2);
  });

  it("messages are allowed after a decision (an approved applicant still talks to the lender)", async () => {
    const appId = await newApplication(jane, "approved");
    expect((await act(appId, [["intent", "send"], ["body", "When do funds arrive?"]], asJane)).status).toBe(200);
    expect((await act(appId, [["intent", "send"], ["body", "Within two business days."]], asAda)).status).toBe(200);
  });

  it("unread counts: loading does not mark read, the read intent does, per reader, only forward", async () => {
    const appId = await newApplication(jane);
    await sendMessage(appId, "Question one", { actor: asJane, request: {} });
    await sendMessage(appId, "Question two", { actor: asJane, request: {} });
    // The writer's own messages are never unread for them.
    expect(await unreadCount(appId, asJane)).toBe(0);
    expect(await unreadCount(appId, asAda)).toBe(2);
    expect((await loadConversation(appId, asAda)).unread).toBe(2);
    // Loading the conversation did not mark it read.
    expect(await unreadCount(appId, asAda)).toBe(2);

    expect((await act(appId, [["intent", "read"]], asAda)).status).toBe(200);
    expect(await unreadCount(appId, asAda)).toBe(0);
    // Each staff member has their own mark.
    expect(await unreadCount(appId, asBob)).toBe(2);
    expect((await unreadCounts([appId], asBob)).get(appId)).toBe(2);

    // Replying moves the writer's own mark too; Jane has one unread.
    await sendMessage(appId, "Answer", { actor: asBob, request: {} });
    expect(await unreadCount(appId, asBob)).toBe(0);
    expect(await unreadCount(appId, asJane)).toBe(1);
    await markConversationRead(appId, asJane);
    expect(await unreadCount(appId, asJane)).toBe(0);

    // A stale mark cannot move it backwards.
    const [before] = await db().select().from(conversationReads).where(and(eq(conversationReads.applicationId, appId), eq(conversationReads.readerId, jane.id)));
    await markConversationRead(appId, asJane);
    const [after] = await db().select().from(conversationReads).where(and(eq(conversationReads.applicationId, appId), eq(conversationReads.readerId, jane.id)));
    expect(after!.lastReadAt.getTime()).toBeGreaterThanOrEqual(before!.lastReadAt.getTime());
  });

  it("totalUnread: an applicant's staff messages across their own applications; staff: applicant messages across all", async () => {
    // Fresh people, so earlier tests' messages do not count.
    const ann = { id: "applicant-ann", name: "Ann Poe", email: "ann@example.com" };
    const cid: AuditActor = { id: "staff-cid", name: "Cid Staff", email: "cid@example.com" };
    for (const who of [ann, cid]) await seedUser(db(), { ...who, profile: true });
    const asAnn = { id: ann.id, side: "applicant" as const };
    const asCid = { id: cid.id, side: "staff" as const, actor: cid };
    const first = await newApplication(ann);
    const second = await newApplication(ann);
    const johns = await newApplication(john);
    expect(await totalUnread(asAnn)).toBe(0);
    await sendMessage(first, "a", { actor: asAda, request: {} });
    await sendMessage(second, "b", { actor: asAda, request: {} });
    await sendMessage(second, "c", { actor: asBob, request: {} });
    await sendMessage(johns, "not Ann's", { actor: asAda, request: {} });
    expect(await totalUnread(asAnn)).toBe(3);
    // Replying on the first application means Ann read it: its "a" is no longer unread.
    await sendMessage(first, "Ann's own", { actor: asAnn, request: {} });
    expect(await totalUnread(asAnn)).toBe(2);
    await markConversationRead(second, asAnn);
    expect(await totalUnread(asAnn)).toBe(0);

    const staffBefore = await totalUnread(asCid);
    await sendMessage(johns, "from John", { actor: asJohn, request: {} });
    expect(await totalUnread(asCid)).toBe(staffBefore + 1);
    await markConversationRead(johns, asCid);
    // John's application had one applicant message ("from John"); Cid reading it clears it for Cid only.
    expect(await totalUnread(asCid)).toBe(staffBefore);
    expect(await totalUnread(asAda)).toBeGreaterThan(0);
  });
  /** The kept counts (drizzle/0013) against direct counts over the messages and the read marks. */
  async function expectKeptCountsExact() {
    const rows = async <T,>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
    const perApplication = await rows<{ application_id: string; a: number; s: number }>(sql`
      select application_id, count(*) filter (where author_side = 'applicant')::int as a, count(*) filter (where author_side = 'staff')::int as s
      from application_messages group by 1 order by 1`);
    const kept = await rows<{ application_id: string; a: number; s: number }>(sql`
      select application_id, applicant_messages as a, staff_messages as s from conversation_counts where applicant_messages <> 0 or staff_messages <> 0 order by 1`);
    expect(kept).toEqual(perApplication);
    const readers = await rows<{ reader_id: string; a: string; s: string }>(sql`
      select reader_id, sum(seen_applicant)::text as a, sum(seen_staff)::text as s from conversation_reads group by 1 having sum(seen_applicant) <> 0 or sum(seen_staff) <> 0 order by 1`);
    const keptReaders = await rows<{ reader_id: string; a: string; s: string }>(sql`
      select reader_id, seen_applicant::text as a, seen_staff::text as s from conversation_reader_totals where seen_applicant <> 0 or seen_staff <> 0 order by 1`);
    expect(keptReaders).toEqual(readers);
    const sides = await rows<{ key: string; n: string }>(sql`
      select 'application_messages:' || s.side as key, count(m.id)::text as n from (values ('applicant'), ('staff')) s(side)
      left join application_messages m on m.author_side = s.side group by 1 order by 1`);
    const keptSides = await rows<{ key: string; n: string }>(sql`select key, rows::text as n from row_counts where key like 'application_messages:%' order by 1`);
    expect(keptSides).toEqual(sides);
  }

  it("a staff member's badge is every applicant message minus what they have read, and stays exact as conversations and people are deleted", async () => {
    const dee: AuditActor = { id: "staff-dee", name: "Dee Staff", email: "dee@example.com" };
    const ivy = { id: "applicant-ivy", name: "Ivy Lee", email: "ivy@example.com" };
    for (const who of [dee, ivy]) await seedUser(db(), { ...who, profile: true });
    const asDee = { id: dee.id, side: "staff" as const, actor: dee };
    const asIvy = { id: ivy.id, side: "applicant" as const };
    const apps = [await newApplication(ivy), await newApplication(ivy), await newApplication(jane)];
    for (const [i, appId] of apps.entries()) {
      for (let n = 0; n <= i; n++) await sendMessage(appId, `applicant ${n}`, { actor: appId === apps[2] ? asJane : asIvy, request: {} });
      await sendMessage(appId, "staff answer", { actor: asAda, request: {} });
    }
    // Dee's badge equals the sum of Dee's per-application unread counts over every conversation.
    const everyApp = (await db().select({ id: loanApplications.id }).from(loanApplications)).map((r) => r.id);
    const sumOf = async (viewer: { id: string; side: "staff" | "applicant" }) => [...(await unreadCounts(everyApp, viewer)).values()].reduce((a, b) => a + b, 0);
    expect(await totalUnread(asDee)).toBe(await sumOf(asDee));
    const before = await totalUnread(asDee);
    await markConversationRead(apps[1]!, asDee);
    expect(await totalUnread(asDee)).toBe(before - 2);
    expect(await totalUnread(asDee)).toBe(await sumOf(asDee));
    expect(await totalUnread(asIvy)).toBe(2);
    await expectKeptCountsExact();

    // Deleting an application takes its messages out of every badge, read or not.
    await db().delete(loanApplications).where(eq(loanApplications.id, apps[1]!));
    await db().delete(loanApplications).where(eq(loanApplications.id, apps[0]!));
    expect(await totalUnread(asDee)).toBe(before - 3);
    expect(await totalUnread(asDee)).toBe(await sumOf(asDee));
    expect(await totalUnread(asIvy)).toBe(0);
    await expectKeptCountsExact();

    // A reader's account deleted: their marks and totals go with it, everyone else's stay exact.
    await markConversationRead(apps[2]!, asDee);
    await db().delete(userTable).where(eq(userTable.id, dee.id));
    expect(await db().select().from(conversationReads).where(eq(conversationReads.readerId, dee.id))).toHaveLength(0);
    await expectKeptCountsExact();
  });

  it("twenty messages and read marks at once keep every count exact", async () => {
    const appId = await newApplication(john);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 4 === 0 ? markConversationRead(appId, i % 8 === 0 ? asAda : asBob) : sendMessage(appId, `parallel ${i}`, { actor: i % 2 === 0 ? asJohn : asBob, request: {} }),
      ),
    );
    await expectKeptCountsExact();
    const [counts] = await db().select({ n: sql<number>`count(*)::int` }).from(applicationMessages).where(and(eq(applicationMessages.applicationId, appId), eq(applicationMessages.authorSide, "applicant")));
    await markConversationRead(appId, asAda);
    expect(await unreadCount(appId, asAda)).toBe(0);
    expect(counts!.n).toBe(5);
  });

  // PGlite runs one transaction at a time, so the interleaving needs a server.
  it.runIf(defaultTestTarget === "postgres")("a message whose transaction began before a read mark but committed after it stays unread", async () => {
    const appId = await newApplication(jane);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const insertedRow = new Promise<void>((resolve) => (written = resolve));
    const writer = db().transaction(async (tx) => {
      await tx.insert(applicationMessages).values({ applicationId: appId, userId: jane.id, authorId: jane.id, authorSide: "applicant", body: "written slowly" });
      written();
      await gate;
    });
    await insertedRow;
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Ada reads the conversation while the message is not yet committed: it was not on her screen.
    await markConversationRead(appId, asAda);
    release();
    await writer;
    expect(await unreadCount(appId, asAda)).toBe(1);
    await markConversationRead(appId, asAda);
    expect(await unreadCount(appId, asAda)).toBe(0);
  });
});
