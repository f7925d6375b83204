import type { Page, PendingTestimonial } from "~/domain/admin-lists";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { testimonials } from "~/server/platform/db/schema.server";
import { columnsOf } from "~/server/platform/db/select-columns.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { invalidatePublicPageCache } from "~/server/platform/http/public-page-cache.server";
import { countRows, pageWindow, withIsoCreatedAt } from "~/server/platform/db/paging.server";

/**
 * Testimonial moderation (/admin/testimonials). Submissions arrive 'pending' (docs/requirements.md §5); an admin
 * approves or rejects each once. The decision is a conditional UPDATE (… WHERE status = 'pending'), so
 * of two admins deciding at once one wins and the other is told; the decision and its audit row
 * ('testimonial.moderate') commit together. Approved ones appear on /testimonials.
 */

export const MODERATION_PAGE_SIZE = 20;

export const moderationDecisionSchema = z.object({
  id: z.uuid("Unknown testimonial."),
  decision: z.enum(["approve", "reject"], "Choose approve or reject."),
});
export type ModerationDecision = z.infer<typeof moderationDecisionSchema>;

export type { Page, PendingTestimonial } from "~/domain/admin-lists";

/** A `?page=` value as a whole page number from 1 (anything else is 1). */
export function parsePageNumber(value: string | null | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/** Pending testimonials, newest first, `MODERATION_PAGE_SIZE` a page (a page past the end shows the last). */
export async function listPendingTestimonials({ page = 1 }: { page?: number } = {}, db: Db = getDb()): Promise<Page<PendingTestimonial>> {
  const total = await countRows(db, testimonials, eq(testimonials.status, "pending"));
  const shown = pageWindow(total, page, MODERATION_PAGE_SIZE);
  const rows = await db
    .select(columnsOf(testimonials, ["id", "fullName", "displayName", "role", "location", "content", "rating", "userId", "createdAt"]))
    .from(testimonials)
    .where(eq(testimonials.status, "pending"))
    .orderBy(desc(testimonials.createdAt), desc(testimonials.id))
    .limit(shown.limit)
    .offset(shown.offset);
  // The authors' sign-in e-mails, one read for the page (null when the account is gone).
  const authors = await peopleByIds(rows.map((r) => r.userId), db);
  const items = rows.map(({ userId, ...row }) => ({ ...row, authorEmail: userId ? (authors.get(userId)?.email ?? null) : null }));
  return {
    items: withIsoCreatedAt(items),
    page: shown.page,
    pageCount: shown.pageCount,
    total,
    pageSize: MODERATION_PAGE_SIZE,
  };
}

export type ModerationResult =
  | { ok: true; id: string; status: "approved" | "rejected" }
  | { ok: false; reason: "invalid" | "conflict"; message: string };

/** Validates `input` ({ id, decision }) and decides a pending testimonial, with its audit row. */
export async function moderateTestimonial(input: unknown, { actor, request }: Caller, db: Db = getDb()): Promise<ModerationResult> {
  const parsed = moderationDecisionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "invalid", message: parsed.error.issues[0]?.message ?? "Invalid request." };
  const { id, decision } = parsed.data;
  const status = decision === "approve" ? ("approved" as const) : ("rejected" as const);
  const decided = await db.transaction(async (tx) => {
    const rows = await tx
      .update(testimonials)
      .set({ status, reviewedAt: sql`now()`, reviewedBy: actor.id })
      .where(and(eq(testimonials.id, id), eq(testimonials.status, "pending")))
      .returning({ id: testimonials.id, rating: testimonials.rating });
    const row = rows[0];
    if (!row) return false;
    await writeAudit(tx, {
      actor,
      action: "testimonial.moderate",
      table: "testimonials",
      recordId: id,
      details: { decision, status, rating: row.rating },
      request,
    });
    return true;
  });
  if (!decided) return { ok: false, reason: "conflict", message: "This testimonial was already moderated or no longer exists." };
  // An approved testimonial shows on the public testimonials page, which is served from rendered bytes.
  if (status === "approved") invalidatePublicPageCache();
  return { ok: true, id, status };
}
