import { getConfig } from "~/server/platform/config.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { contactMessages } from "~/server/platform/db/schema.server";
import { contactMessageEmail, enqueueEmail } from "~/server/platform/mail/index.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";
import type { Toast } from "~/domain/action-result";
import { site } from "~/content/site";
import {
  CONTACT_HONEYPOT_FIELD,
  CONTACT_MESSAGES,
  contactFormValues,
  parseContact,
  type ContactActionData,
  type ContactMessageInput,
} from "~/domain/validation/contact";

/**
 * The contact form's server side (docs/requirements.md §8 "send-contact-email"): throttle per IP, drop honeypot
 * hits quietly, validate with the browser's schema, then store the message and queue the lender's
 * e-mail in one transaction. The mail worker sends it later, so a mail outage loses nothing.
 */

export type ContactResult = ServiceAnswer<ContactActionData>;

export type ContactMeta = { ip: string };

const success: Toast = { type: "success", title: CONTACT_MESSAGES.success };
const failure: Toast = { type: "error", title: CONTACT_MESSAGES.failure };

/**
 * Stores one validated message and queues the lender's notification in a single transaction: both
 * rows are written or neither is. Returns the new message's id.
 */
export async function storeContactMessage(
  message: ContactMessageInput,
  meta: ContactMeta,
  db: Db = getDb(),
): Promise<{ id: string }> {
  const to = getConfig().lenderNotifyEmail;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({
        name: message.name,
        email: message.email,
        phone: message.phone ?? null,
        subject: message.subject,
        message: message.message,
        ipAddress: meta.ip || null,
      })
      .returning({ id: contactMessages.id });
    if (!row) throw new Error("contact: insert returned no row");
    await enqueueEmail(tx, { to, ...contactMessageEmail(message) });
    return row;
  });
}

/** Handles one POST of the contact form. Never throws for bad input, spam or a database failure. */
export async function submitContactForm(form: FormData, meta: ContactMeta, db: Db = getDb()): Promise<ContactResult> {
  const throttled = await throttleRefusal(
    [[`contact:ip:${meta.ip || "unknown"}`, THROTTLES.contactPerIp]],
    (message): ContactActionData => ({ ok: false, toast: { type: "error", title: message, description: `Or call us directly at ${site.phone.display}.` } }),
    { db },
  );
  if (throttled) return throttled;

  // A filled honeypot is a bot: answer as if all went well, keep nothing.
  const trap = form.get(CONTACT_HONEYPOT_FIELD);
  if (typeof trap === "string" && trap.trim() !== "") return { status: 200, body: { ok: true, toast: success } };

  const values = contactFormValues(form);
  const parsed = parseContact(values);
  if (!parsed.ok) {
    return { status: 400, body: { ok: false, toast: failure, fieldErrors: parsed.fieldErrors, values } };
  }

  try {
    await storeContactMessage(parsed.value, meta, db);
  } catch (error) {
    logFailure("contact", "could not store a message", error);
    return { status: 500, body: { ok: false, toast: failure, values } };
  }
  return { status: 200, body: { ok: true, toast: success } };
}

/** The contact action: reads the posted form (a too large or unreadable one is refused), then submitContactForm. */
export async function submitContactRequest(request: Request, meta: ContactMeta): Promise<ContactResult> {
  const read = await readActionForm(request, (message): ContactActionData => ({ ok: false, toast: { ...failure, description: message } }));
  return read.ok ? submitContactForm(read.form, meta) : read.answer;
}
