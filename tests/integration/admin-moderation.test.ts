import { and, count, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  listContactMessages,
  MESSAGES_PAGE_SIZE,
  parseMessageView,
  setContactMessageStatus,
} from "~/server/public-site/contact-inbox.server";
import {
  listPendingTestimonials,
  moderateTestimonial,
  MODERATION_PAGE_SIZE,
  parsePageNumber,
} from "~/server/public-site/moderation.server";
import { auditLog, contactMessages, testimonials } from "~/server/platform/db/schema.server";
import { createTestimonial, listApprovedTestimonials } from "~/server/public-site/testimonials.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicants } from "../helpers/seed";

/** Testimonial moderation and the contact-messages inbox against a real database. */

setUpTestConfig("moderation", { APP_SECRET: "d".repeat(48) });

const admin = { id: "mod-admin", name: "Mona Moderator", email: "mona@example.com" };
const request = { ip: "198.51.100.4", userAgent: "vitest" };

describe("testimonial moderation", () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const author = { id: "mod-author" };

  beforeAll(async () => {
    await seedApplicants(db(), [
      { id: admin.id, name: admin.name, email: admin.email },
      { id: author.id, name: "Tess Author", email: "tess@example.com" },
      { id: "mod-admin-2", name: "Max Moderator", email: "max@example.com" },
    ]);
  });

  async function pending(content: string, hoursAgo = 0): Promise<string> {
    const { id } = await createTestimonial(author.id, { rating: 4, fullName: "Tess Author", displayName: "Tess A.", role: "Homeowner", location: "Tulsa, OK", content }, db());
    if (hoursAgo) await db().update(testimonials).set({ createdAt: sql`now() - (${hoursAgo}::int * interval '1 hour')` }).where(eq(testimonials.id, id));
    return id;
  }

  const auditRows = (recordId: string) =>
    db().select().from(auditLog).where(and(eq(auditLog.action, "testimonial.moderate"), eq(auditLog.recordId, recordId)));

  it("lists pending testimonials newest first with the author's account e-mail", async () => {
    const older = await pending("Older pending review.", 5);
    const newer = await pending("Newer pending review.", 1);
    const page = await listPendingTestimonials({ page: 1 }, db());
    expect(page.items.map((t) => t.id)).toEqual([newer, older]);
    expect(page.items[0]).toMatchObject({ displayName: "Tess A.", fullName: "Tess Author", role: "Homeowner", location: "Tulsa, OK", rating: 4, authorEmail: "tess@example.com" });
    expect(page).toMatchObject({ page: 1, pageCount: 1, total: 2, pageSize: MODERATION_PAGE_SIZE });
  });

  it("approves a pending testimonial once, audits it, and publishes it", async () => {
    const id = await pending("Approve me: closed in nine days, clear terms.");
    const result = await moderateTestimonial({ id, decision: "approve" }, { actor: admin, request }, db());
    expect(result).toEqual({ ok: true, id, status: "approved" });

    const [row] = await db().select().from(testimonials).where(eq(testimonials.id, id));
    expect(row).toMatchObject({ status: "approved", reviewedBy: admin.id });
    expect(row!.reviewedAt).toBeInstanceOf(Date);

    const audits = await auditRows(id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: admin.id,
      actorName: admin.name,
      actorEmail: admin.email,
      tableName: "testimonials",
      ipAddress: request.ip,
      details: { decision: "approve", status: "approved", rating: 4 },
    });

    expect((await listApprovedTestimonials({}, db())).map((t) => t.id)).toContain(id);
    expect((await listPendingTestimonials({}, db())).items.map((t) => t.id)).not.toContain(id);

    // A second decision on a decided testimonial is refused and writes nothing.
    const again = await moderateTestimonial({ id, decision: "reject" }, { actor: admin, request }, db());
    expect(again).toMatchObject({ ok: false, reason: "conflict" });
    const [still] = await db().select().from(testimonials).where(eq(testimonials.id, id));
    expect(still!.status).toBe("approved");
    expect(await auditRows(id)).toHaveLength(1);
  });

  it("rejects a pending testimonial: audited, never published", async () => {
    const id = await pending("Reject me.");
    expect(await moderateTestimonial({ id, decision: "reject" }, { actor: admin, request }, db())).toEqual({ ok: true, id, status: "rejected" });
    const [row] = await db().select().from(testimonials).where(eq(testimonials.id, id));
    expect(row!.status).toBe("rejected");
    expect(await auditRows(id)).toHaveLength(1);
    expect((await listApprovedTestimonials({}, db())).map((t) => t.id)).not.toContain(id);
    expect(await moderateTestimonial({ id, decision: "approve" }, { actor: admin, request }, db())).toMatchObject({ ok: false, reason: "conflict" });
  });

  it("refuses invalid input and unknown ids without writing", async () => {
    const before = (await db().select({ n: count() }).from(auditLog))[0]!.n;
    const id = await pending("Stays pending.");
    for (const input of [{ id: "not-a-uuid", decision: "approve" }, { id, decision: "publish" }, { id }, {}, null, "x"]) {
      expect(await moderateTestimonial(input, { actor: admin, request }, db())).toMatchObject({ ok: false, reason: "invalid" });
    }
    expect(await moderateTestimonial({ id: randomUUID(), decision: "approve" }, { actor: admin, request }, db())).toMatchObject({ ok: false, reason: "conflict" });
    const [row] = await db().select().from(testimonials).where(eq(testimonials.id, id));
    expect(row!.status).toBe("pending");
    expect((await db().select({ n: count() }).from(auditLog))[0]!.n).toBe(before);
  });

  it("of two simultaneous decisions exactly one wins", async () => {
    const id = await pending("Raced.");
    const results = await Promise.all([
      moderateTestimonial({ id, decision: "approve" }, { actor: admin, request }, db()),
      moderateTestimonial({ id, decision: "reject" }, { actor: { ...admin, id: "mod-admin-2" }, request }, db()),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await auditRows(id)).toHaveLength(1);
  });

  it("pages through pending testimonials 20 at a time", async () => {
    const start = (await listPendingTestimonials({}, db())).total;
    for (let i = 0; i < 25; i++) await pending(`Bulk ${i}`);
    const total = start + 25;
    const first = await listPendingTestimonials({ page: 1 }, db());
    const second = await listPendingTestimonials({ page: 2 }, db());
    expect(first.items).toHaveLength(20);
    expect(first).toMatchObject({ total, pageCount: Math.ceil(total / 20) });
    expect(second.items).toHaveLength(total - 20);
    expect(new Set([...first.items, ...second.items].map((t) => t.id)).size).toBe(total);
    expect((await listPendingTestimonials({ page: 99 }, db())).page).toBe(2);
    expect(parsePageNumber("2")).toBe(2);
    for (const bad of [null, "", "0", "-1", "1.5", "abc"]) expect(parsePageNumber(bad)).toBe(1);
  });
});

describe("contact-messages inbox", () => {
  const database = useTestDatabase();
  const db = () => database().db;

  async function message(subject: string, minutesAgo: number, status: "new" | "read" | "archived" = "new"): Promise<string> {
    const [row] = await db()
      .insert(contactMessages)
      .values({ name: "Vic Visitor", email: "vic@example.com", phone: "2125550142", subject, message: `About ${subject}`, status, createdAt: sql`now() - (${minutesAgo}::int * interval '1 minute')` })
      .returning({ id: contactMessages.id });
    return row!.id;
  }

  it("lists the inbox newest first and writes a 'contact.list' audit row for each read", async () => {
    const a = await message("Rates", 30);
    const b = await message("Documents", 10, "read");
    await message("Old", 60, "archived");
    const page = await listContactMessages({ view: "inbox", page: 1 }, { actor: admin, request }, db());
    expect(page.items.map((m) => m.id)).toEqual([b, a]);
    expect(page).toMatchObject({ total: 2, unread: 1, view: "inbox", pageCount: 1 });
    expect(page.items[1]).toMatchObject({ name: "Vic Visitor", email: "vic@example.com", phone: "2125550142", subject: "Rates", status: "new" });

    const audits = await db().select().from(auditLog).where(eq(auditLog.action, "contact.list"));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: admin.id, tableName: "contact_messages", details: { view: "inbox", page: 1, count: 2 } });

    const archived = await listContactMessages({ view: "archived" }, { actor: admin, request }, db());
    expect(archived.items.map((m) => m.subject)).toEqual(["Old"]);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, "contact.list"))).toHaveLength(2);
  });

  it("marks a message read, archives it, and moves it back to the inbox", async () => {
    const id = await message("Status", 1);
    expect(await setContactMessageStatus({ id, status: "read" }, { actor: admin, request }, db())).toEqual({ ok: true, id, status: "read" });
    expect((await db().select().from(contactMessages).where(eq(contactMessages.id, id)))[0]!.status).toBe("read");
    expect(await setContactMessageStatus({ id, status: "archived" }, { actor: admin, request }, db())).toMatchObject({ ok: true });
    expect((await db().select().from(contactMessages).where(eq(contactMessages.id, id)))[0]!.status).toBe("archived");
    expect(await setContactMessageStatus({ id, status: "read" }, { actor: admin, request }, db())).toMatchObject({ ok: true });
    expect((await db().select().from(contactMessages).where(eq(contactMessages.id, id)))[0]!.status).toBe("read");
    const updates = await db().select().from(auditLog).where(and(eq(auditLog.action, "contact.update"), eq(auditLog.recordId, id)));
    expect(updates.map((u) => u.details)).toEqual([{ status: "read" }, { status: "archived" }, { status: "read" }]);
  });

  it("refuses bad input and unknown messages; never sets 'new' again", async () => {
    const id = await message("Guarded", 2);
    for (const input of [{ id, status: "new" }, { id, status: "deleted" }, { id: "x", status: "read" }, null]) {
      expect((await setContactMessageStatus(input, { actor: admin, request }, db())).ok).toBe(false);
    }
    expect(await setContactMessageStatus({ id: randomUUID(), status: "read" }, { actor: admin, request }, db())).toMatchObject({ ok: false });
    expect(parseMessageView("archived")).toBe("archived");
    expect(parseMessageView("<script>")).toBe("inbox");
  });

  it("pages 20 at a time", async () => {
    for (let i = 0; i < 25; i++) await message(`Bulk ${i}`, 100 + i);
    const first = await listContactMessages({ page: 1 }, { actor: admin, request }, db());
    const second = await listContactMessages({ page: 2 }, { actor: admin, request }, db());
    expect(first.items).toHaveLength(MESSAGES_PAGE_SIZE);
    expect(first.items.length + second.items.length).toBe(first.total);
    expect(new Set([...first.items, ...second.items].map((m) => m.id)).size).toBe(first.total);
  });
});
