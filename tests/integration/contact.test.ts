import { eq, sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_HONEYPOT_FIELD, CONTACT_MESSAGES, type ContactActionData } from "~/domain/validation/contact";
import { action as contactAction } from "~/routes/_site/contact";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { storeContactMessage, submitContactForm } from "~/server/public-site/contact.server";
import { contactMessages, emailOutbox } from "~/server/platform/db/schema.server";
import { THROTTLES } from "~/server/platform/security/throttle.server";
import { useTestDatabase } from "../helpers/test-db";

/** The contact form's server side: storage and outbox in one transaction, spam protection, status codes. */

const LENDER = "lender@loans.example";
const ORIGIN = "https://loans.example";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-contact-"));
beforeAll(() =>
  setConfig(
    loadConfig({ DATA_DIR: dataDir, APP_SECRET: "c".repeat(48), PUBLIC_URL: ORIGIN, LENDER_NOTIFY_EMAIL: LENDER, PWNED_PASSWORDS_URL: "off" }),
  ),
);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

let ipCounter = 1;
/** A fresh client IP per test, so the per-IP throttle of one test never touches another. */
const nextIp = () => `198.51.100.${ipCounter++}`;

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const valid = {
  name: "Jane Doe",
  email: "jane@example.com",
  phone: "5551234567",
  subject: "Business loan question",
  message: "What documents do I need for a business loan?",
};

/** Calls the route's action the way the server does, with an Origin header from our site. */
async function post(fields: Record<string, string>, ip: string, headers: Record<string, string> = { origin: ORIGIN }) {
  const request = new Request(`${ORIGIN}/contact`, { method: "POST", body: form(fields), headers });
  const result = await contactAction({ request, params: {}, context: { clientIp: ip, cspNonce: "n", secure: true } } as unknown as Parameters<
    typeof contactAction
  >[0]);
  const r = result as unknown as { data: ContactActionData; init: { status?: number; headers?: Record<string, string> } | null };
  return { status: r.init?.status ?? 200, body: r.data, headers: r.init?.headers };
}

describe("contact form server", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  const countRows = async () => {
    const [m] = await db().select({ n: sql<number>`count(*)::int` }).from(contactMessages);
    const [o] = await db().select({ n: sql<number>`count(*)::int` }).from(emailOutbox);
    return { messages: Number(m!.n), outbox: Number(o!.n) };
  };

  it("stores the message with the sender's IP and queues the lender's e-mail in the same transaction", async () => {
    const ip = nextIp();
    const res = await post(valid, ip);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, toast: { type: "success", title: CONTACT_MESSAGES.success } });

    const [row] = await db().select().from(contactMessages).where(eq(contactMessages.ipAddress, ip));
    expect(row).toMatchObject({ ...valid, phone: "(555) 123-4567", ipAddress: ip, status: "new" });
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, LENDER));
    expect(mail).toMatchObject({ template: "contact-message", status: "pending" });
    expect(mail!.subject).toContain(valid.subject);
    expect(mail!.textBody).toContain(valid.message);
    expect(mail!.textBody).toContain("jane@example.com");
    // now() is fixed for a whole transaction: equal timestamps mean one transaction wrote both rows.
    expect(mail!.createdAt.getTime()).toBe(row!.createdAt.getTime());
  });

  it("leaves neither row when the transaction fails after the message was inserted", async () => {
    const before = await countRows();
    await db().execute(sql`
      create or replace function fail_outbox_insert() returns trigger language plpgsql as $$
      begin raise exception 'outbox is down (test)'; end $$`);
    await db().execute(sql`create trigger fail_outbox_insert before insert on email_outbox for each row execute function fail_outbox_insert()`);
    try {
      await expect(storeContactMessage({ ...valid, phone: undefined }, { ip: "192.0.2.1" })).rejects.toThrow();
      const quiet = console.error;
      console.error = () => undefined;
      try {
        const res = await submitContactForm(form(valid), { ip: nextIp() });
        expect(res.status).toBe(500);
        expect(res.body).toMatchObject({ ok: false, toast: { type: "error", title: CONTACT_MESSAGES.failure } });
      } finally {
        console.error = quiet;
      }
    } finally {
      await db().execute(sql`drop trigger fail_outbox_insert on email_outbox`);
      await db().execute(sql`drop function fail_outbox_insert()`);
    }
    expect(await countRows()).toEqual(before);
  });

  it("answers a filled honeypot with success and stores nothing", async () => {
    const before = await countRows();
    const res = await post({ ...valid, [CONTACT_HONEYPOT_FIELD]: "http://spam.example" }, nextIp());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, toast: { title: CONTACT_MESSAGES.success } });
    expect(await countRows()).toEqual(before);
  });

  it("stores HTML verbatim and escapes it in the e-mail's HTML body", async () => {
    const ip = nextIp();
    const evil = `<script>alert("x")</script><b>bold</b> & 'quotes'`;
    const res = await post({ ...valid, name: `<img src=x onerror=alert(1)>`, subject: "<i>Hi</i>", message: evil }, ip);
    expect(res.status).toBe(200);
    const [row] = await db().select().from(contactMessages).where(eq(contactMessages.ipAddress, ip));
    expect(row!.message).toBe(evil);
    expect(row!.name).toBe(`<img src=x onerror=alert(1)>`);
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.subject, "Contact form: <i>Hi</i>"));
    expect(mails).toHaveLength(1);
    const html = mails[0]!.htmlBody!;
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>bold</b>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quotes&#39;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(mails[0]!.textBody).toContain(evil);
  });

  it("answers bad input with 400, the field errors and the failure toast, storing nothing", async () => {
    const before = await countRows();
    const res = await post({ name: "", email: "not-an-address", phone: "123", subject: "", message: "" }, nextIp());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      ok: false,
      toast: { type: "error", title: CONTACT_MESSAGES.failure },
      fieldErrors: {
        name: [CONTACT_MESSAGES.name],
        email: [CONTACT_MESSAGES.emailFormat],
        phone: [CONTACT_MESSAGES.phone],
        subject: [CONTACT_MESSAGES.subject],
        message: [CONTACT_MESSAGES.message],
      },
      values: { email: "not-an-address" },
    });
    expect(await countRows()).toEqual(before);
  });

  it("answers a body that is not a form with 400, not an error page", async () => {
    const request = new Request(`${ORIGIN}/contact`, {
      method: "POST",
      body: "{}",
      headers: { origin: ORIGIN, "content-type": "application/json" },
    });
    const result = (await contactAction({ request, params: {}, context: { clientIp: nextIp(), cspNonce: "n", secure: true } } as unknown as Parameters<
      typeof contactAction
    >[0])) as unknown as { init: { status: number } };
    expect(result.init.status).toBe(400);
  });

  it("refuses a cross-site post with 403", async () => {
    await expect(post(valid, nextIp(), { origin: "https://evil.example" })).rejects.toMatchObject({ init: { status: 403 } });
  });

  it(`allows ${THROTTLES.contactPerIp.limit} posts per IP, then answers 429 with a toast`, async () => {
    const ip = nextIp();
    for (let i = 0; i < THROTTLES.contactPerIp.limit; i++) {
      expect((await post({ ...valid, subject: `Throttle ${i}` }, ip)).status).toBe(200);
    }
    const before = await countRows();
    const refused = await post({ ...valid, subject: "One too many" }, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers?.["Retry-After"]).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({ ok: false, toast: { type: "error" } });
    if (!refused.body.ok) expect(refused.body.toast.title).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    expect(await countRows()).toEqual(before);
    // Another visitor is not affected.
    expect((await post(valid, nextIp())).status).toBe(200);
  });
});
