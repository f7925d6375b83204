import { eq, sql } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { TESTIMONIAL_MESSAGES, TESTIMONIAL_TOASTS } from "~/domain/validation/testimonial";
import TestimonialsPage from "~/routes/_site/testimonials";
import { testimonials } from "~/server/platform/db/schema.server";
import {
  createTestimonial,
  listApprovedTestimonials,
  submitTestimonial,
  submitTestimonialRequest,
} from "~/server/public-site/testimonials.server";
import { THROTTLES } from "~/server/platform/security/throttle.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedUser } from "../helpers/seed";

/** The testimonial server module against a real (PGlite or PostgreSQL) database. */

setUpTestConfig("testimonials", { APP_SECRET: "a".repeat(48) });

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const valid = { rating: "5", fullName: "Jane Roe", displayName: "", role: "Small Business Owner", location: "", content: "Fast and fair." };

describe("testimonials", () => {
  const database = useTestDatabase({ global: true });
  let n = 0;

  async function newUser(): Promise<{ id: string }> {
    n += 1;
    const id = `user-testimonial-${n}`;
    await seedUser(database().db, { id, name: `User ${n}`, email: `t${n}@example.com` });
    return { id };
  }

  it("stores a valid submission as pending, with the user id, a null location and the full name as display name", async () => {
    const author = await newUser();
    const result = await submitTestimonial(author, form({ ...valid, location: "   " }));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ ok: true, toast: TESTIMONIAL_TOASTS.submitted });
    expect(result.body.toast).toMatchObject({
      title: "Testimonial Submitted",
      description: "Thank you! Your testimonial will be reviewed and published shortly.",
    });
    const [row] = await database().db.select().from(testimonials).where(eq(testimonials.id, result.id!));
    expect(row).toMatchObject({
      userId: author.id,
      status: "pending",
      fullName: "Jane Roe",
      displayName: "Jane Roe",
      role: "Small Business Owner",
      location: null,
      content: "Fast and fair.",
      rating: 5,
    });
  });

  it("keeps a given display name and location (trimmed)", async () => {
    const author = await newUser();
    const result = await submitTestimonial(author, form({ ...valid, displayName: " Jane R. ", location: " Austin, TX " }));
    const [row] = await database().db.select().from(testimonials).where(eq(testimonials.id, result.id!));
    expect(row).toMatchObject({ displayName: "Jane R.", location: "Austin, TX" });
  });

  it("refuses a visitor with 401 and the spec's message", async () => {
    const result = await submitTestimonial(null, form(valid));
    expect(result.status).toBe(401);
    expect(result.body.toast).toEqual(TESTIMONIAL_TOASTS.authRequired);
    expect(result.body.toast.title).toBe("Authentication Required");
    expect(result.body.toast.description).toBe("Please sign in to submit a testimonial.");
    const viaRequest = await submitTestimonialRequest(new Request("http://x/testimonials", { method: "POST", body: form(valid) }), null);
    expect(viaRequest.status).toBe(401);
  });

  it("refuses a missing or invalid rating and a missing role, with field messages, and stores nothing", async () => {
    const author = await newUser();
    const before = await database().db.$count(testimonials);

    const noRating = await submitTestimonial(author, form({ ...valid, rating: "" }));
    expect(noRating.status).toBe(400);
    expect(noRating.body.toast).toEqual({ type: "error", title: "Rating Required", description: TESTIMONIAL_MESSAGES.ratingRequired });
    expect(noRating.body.fieldErrors?.rating).toEqual([TESTIMONIAL_MESSAGES.ratingRequired]);

    for (const rating of ["0", "6", "3.5", "abc"]) {
      const bad = await submitTestimonial(author, form({ ...valid, rating }));
      expect(bad.status).toBe(400);
      expect(bad.body.toast.title).toBe("Rating Required");
      expect(bad.body.fieldErrors?.rating?.length).toBe(1);
    }

    const noRole = await submitTestimonial(author, form({ ...valid, role: "  " }));
    expect(noRole.status).toBe(400);
    expect(noRole.body.fieldErrors?.role).toEqual([TESTIMONIAL_MESSAGES.roleRequired]);
    expect(noRole.body.toast.description).toBe(TESTIMONIAL_MESSAGES.roleRequired);

    const several = await submitTestimonial(author, form({ rating: "", fullName: "", role: "", content: "" }));
    expect(Object.keys(several.body.fieldErrors ?? {}).sort()).toEqual(["content", "fullName", "rating", "role"]);
    // The toast names the first problem in screen order: the rating.
    expect(several.body.toast.title).toBe("Rating Required");

    const tooLong = await submitTestimonial(author, form({ ...valid, content: "x".repeat(2001) }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fieldErrors?.content).toEqual([TESTIMONIAL_MESSAGES.contentTooLong]);

    expect(await database().db.$count(testimonials)).toBe(before);
  });

  it("refuses an oversized or unreadable form without throwing", async () => {
    const author = await newUser();
    const big = await submitTestimonialRequest(
      new Request("http://x/testimonials", { method: "POST", body: "x", headers: { "content-length": String(1024 * 1024) } }),
      author,
    );
    expect(big.status).toBe(413);
    const garbage = await submitTestimonialRequest(
      new Request("http://x/testimonials", { method: "POST", body: "--nope", headers: { "content-type": "multipart/form-data; boundary=zzz" } }),
      author,
    );
    expect(garbage.status).toBe(400);
    expect(garbage.body.toast).toEqual(TESTIMONIAL_TOASTS.failed);
  });

  it("throttles each user to 5 submissions an hour", async () => {
    const author = await newUser();
    for (let i = 0; i < THROTTLES.testimonialPerUser.limit; i++) expect((await submitTestimonial(author, form(valid))).status).toBe(200);
    const refused = await submitTestimonial(author, form(valid));
    expect(refused.status).toBe(429);
    expect(refused.body.toast.description).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    // Another user is not affected.
    expect((await submitTestimonial(await newUser(), form(valid))).status).toBe(200);
  });

  it("answers 'Submission Failed' (not a thrown error) when the database refuses", async () => {
    // A user id that does not exist breaks the foreign key.
    const result = await submitTestimonial({ id: "no-such-user" }, form(valid));
    expect(result.status).toBe(500);
    expect(result.body.toast).toEqual(TESTIMONIAL_TOASTS.failed);
  });

  it("stores HTML verbatim, and the page renders it as text", async () => {
    const author = await newUser();
    const html = `<img src=x onerror="alert(1)"><script>alert("x")</script> & <b>bold</b>`;
    const result = await submitTestimonial(author, form({ ...valid, displayName: "<i>Eve</i>", content: html }));
    expect(result.status).toBe(200);
    const [row] = await database().db.select().from(testimonials).where(eq(testimonials.id, result.id!));
    expect(row!.content).toBe(html);

    await database().db.update(testimonials).set({ status: "approved", reviewedAt: new Date() }).where(eq(testimonials.id, result.id!));
    const approved = await listApprovedTestimonials({ limit: 50 });
    const Stub = createRoutesStub([{ path: "/testimonials", Component: TestimonialsPage as never }]);
    const markup = renderToString(
      createElement(Stub, {
        initialEntries: ["/testimonials"],
        hydrationData: { loaderData: { "0": { signedIn: false, approved } } },
      }),
    );
    expect(markup).toContain("Share Your Experience");
    expect(markup).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;");
    expect(markup).toContain("&lt;i&gt;Eve&lt;/i&gt;");
    expect(markup).not.toContain("<script>alert");
    expect(markup).not.toContain("<img src=x");
    expect(markup).not.toContain("<i>Eve</i>");
  });

  it("lists only approved testimonials, newest first, without the author's full name or id", async () => {
    const db = database().db;
    await db.update(testimonials).set({ status: "rejected" }).where(eq(testimonials.status, "approved"));
    const author = await newUser();
    const base = { userId: author.id, fullName: "Full Name", role: "Investor", content: "Good", rating: 4 };
    const rows = [
      { ...base, displayName: "Old", status: "approved" as const, createdAt: new Date("2026-01-01T00:00:00Z") },
      { ...base, displayName: "New", status: "approved" as const, createdAt: new Date("2026-03-01T00:00:00Z") },
      { ...base, displayName: "Middle", status: "approved" as const, createdAt: new Date("2026-02-01T00:00:00Z") },
      { ...base, displayName: "Pending", status: "pending" as const, createdAt: new Date("2026-04-01T00:00:00Z") },
      { ...base, displayName: "Rejected", status: "rejected" as const, createdAt: new Date("2026-05-01T00:00:00Z") },
    ];
    await db.insert(testimonials).values(rows);
    const list = await listApprovedTestimonials({ limit: 10 });
    expect(list.map((t) => t.displayName)).toEqual(["New", "Middle", "Old"]);
    expect(list[0]).toEqual({
      id: expect.any(String),
      displayName: "New",
      role: "Investor",
      location: null,
      content: "Good",
      rating: 4,
      createdAt: "2026-03-01T00:00:00.000Z",
    });
    expect((await listApprovedTestimonials({ limit: 2 })).map((t) => t.displayName)).toEqual(["New", "Middle"]);
  });

  it("returns an empty list when nothing is approved", async () => {
    await database().db.execute(sql`update testimonials set status = 'pending'`);
    expect(await listApprovedTestimonials()).toEqual([]);
  });

  it("createTestimonial inserts exactly the validated values as pending", async () => {
    const author = await newUser();
    const { id } = await createTestimonial(author.id, {
      rating: 3,
      fullName: "A B",
      displayName: "A",
      role: "R",
      location: null,
      content: "C",
    });
    const [row] = await database().db.select().from(testimonials).where(eq(testimonials.id, id));
    expect(row).toMatchObject({ status: "pending", rating: 3, userId: author.id });
  });
});

describe("no component renders stored text as HTML", () => {
  it("never uses dangerouslySetInnerHTML in the testimonial components or page", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const files = [
      ...fs.readdirSync(path.join(root, "app/components/testimonials")).map((f) => path.join(root, "app/components/testimonials", f)),
      path.join(root, "app/routes/_site/testimonials.tsx"),
    ];
    for (const file of files) expect(fs.readFileSync(file, "utf8"), file).not.toContain("dangerouslySetInnerHTML");
  });
});
