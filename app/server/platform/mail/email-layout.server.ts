import { site } from "~/content/site";

/**
 * The frame every e-mail shares: escaping (every interpolated value goes through `escapeHtml` in
 * the HTML body; the `html` tagged template does it automatically, only `raw(...)` fragments built
 * here bypass it), one-line subjects (no header injection), http(s)-only links, the content blocks
 * a message is made of, and the branded layout that renders them as plain text and as HTML.
 * The messages themselves are in templates.server.ts.
 */

export type TemplateName =
  | "verification-code"
  | "password-reset"
  | "password-changed"
  | "application-received"
  | "application-notification"
  | "application-approved"
  | "application-counteroffer"
  | "application-denied"
  | "application-incomplete"
  | "application-withdrawn"
  | "contact-message"
  | "documents-requested"
  | "answer-rejected"
  | "new-message"
  // The offer and the agreement.
  | "offer-declined"
  | "offer-declined-notice"
  | "offer-expired"
  | "offer-expired-notice"
  | "offer-withdrawn"
  | "agreement-signed"
  // Servicing.
  | "loan-paid-in-full"
  | "payment-reminder"
  | "late-notice"
  | "collections-15"
  | "collections-30"
  | "collections-60"
  | "payment-authorized"
  | "loan-funds-sent"
  | "loan-funds-returned"
  | "loan-cancelled"
  | "payment-account-changed"
  | "debit-cancelled"
  | "refund-due"
  | "refund-sent"
  | "payment-returned"
  | "prenote-returned"
  // Autopay: the copy of the authorisation, its change or end, a debit's differing amount.
  | "autopay-authorized"
  | "autopay-cancelled"
  | "autopay-amount"
  // Hardship plans: a plan offered to the borrower, the copy of the plan they signed; to staff, a request.
  | "plan-offered"
  | "plan-signed"
  | "hardship-requested"
  // Staff invitations.
  | "staff-invitation"
  // Download My Data and Close My Account.
  | "data-export-ready"
  | "account-closed"
  // Account settings.
  | "email-change-code"
  | "email-changed"
  // A passkey added to the account (it signs in without the password).
  | "passkey-added"
  // To every admin: a sanctions match was confirmed on an application.
  | "sanctions-match-confirmed";

/** What a template produces; spread it into enqueueEmail together with `to`. */
export type RenderedEmail = {
  template: TemplateName;
  subject: string;
  text: string;
  html: string;
};

export const BRAND_NAME = site.name; // "Private Loans"
export const BRAND_FOOTER = site.footerLine; // "Your Trusted Private Lending Partner"

// ---------------------------------------------------------------------------------------------
// Escaping and small formatting helpers
// ---------------------------------------------------------------------------------------------

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** A fragment of trusted HTML (built by this module only). */
class RawHtml {
  constructor(readonly value: string) {}
}
function raw(value: string): RawHtml {
  return new RawHtml(value);
}

/** Tagged template: interpolations are escaped unless they are RawHtml (or arrays of them). */
function html(strings: TemplateStringsArray, ...values: unknown[]): RawHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += renderValue(value) + (strings[i + 1] ?? "");
  });
  return raw(out);
}
function renderValue(value: unknown): string {
  if (value instanceof RawHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  return escapeHtml(value);
}

/** One line, no control characters: safe for a Subject header. */
export function oneLine(value: unknown, max = 120): string {
  // eslint-disable-next-line no-control-regex
  const s = String(value ?? "").replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Joins a base URL (no trailing slash needed) and a path. */
export function absoluteUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

/** Only http(s) links go into an href: a javascript: or data: URL would be a trap. */
function safeLink(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("e-mail link must be an absolute URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("e-mail link must be http(s)");
  return parsed.toString();
}

/** The first word of a name, for a greeting ("there" when there is none). */
export function firstName(fullName: string): string {
  return oneLine(fullName).split(" ")[0] || "there";
}

/** The lender's postal address in one line. */
export const creditorAddress = `${site.address.street}, ${site.address.city}, ${site.address.state} ${site.address.zip}`;

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

/** One piece of a message's body, rendered as text and as HTML by `layout`. */
export type Block =
  | { kind: "p"; text: string }
  | { kind: "strong"; text: string }
  | { kind: "code"; text: string }
  | { kind: "button"; label: string; url: string }
  | { kind: "fields"; rows: [label: string, value: string][] }
  | { kind: "list"; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "small"; text: string };

/** "Hello <first name>," — how the applicant's e-mails open. */
export const greeting = (fullName: string): Block => ({ kind: "p", text: `Hello ${firstName(fullName)},` });

/** A button to a page of the site (`path` below the configured public URL). */
export const pageButton = (label: string, baseUrl: string, path: string): Block => ({
  kind: "button",
  label,
  url: absoluteUrl(baseUrl, path),
});

function renderTextBlock(block: Block): string {
  switch (block.kind) {
    case "p":
    case "small":
    case "strong":
      return block.text;
    case "code":
      return `    ${block.text}`;
    case "button":
      return `${block.label}: ${block.url}`;
    case "fields":
      return block.rows.map(([label, value]) => `${label}: ${value}`).join("\n");
    case "list":
      return block.items.map((item) => `  - ${item}`).join("\n");
    case "quote":
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join("\n");
  }
}

const P = "margin:0 0 16px;font-size:15px;line-height:1.6;color:#1f2937;";

function renderHtmlBlock(block: Block): RawHtml {
  switch (block.kind) {
    case "p":
      return html`<p style="${raw(P)}">${block.text}</p>`;
    case "strong":
      return html`<p style="${raw(P)}"><strong>${block.text}</strong></p>`;
    case "small":
      return html`<p style="margin:0 0 12px;font-size:12px;line-height:1.5;color:#6b7280;">${block.text}</p>`;
    case "code":
      return html`<p style="margin:8px 0 24px;font-size:32px;font-weight:700;letter-spacing:8px;color:#0f2a4a;font-family:Consolas,Menlo,monospace;">${block.text}</p>`;
    case "button":
      return html`<p style="margin:8px 0 24px;"><a href="${safeLink(block.url)}" style="display:inline-block;background:#0f2a4a;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:6px;font-weight:600;font-size:15px;">${block.label}</a></p>
<p style="margin:0 0 16px;font-size:12px;line-height:1.5;color:#6b7280;">If the button does not work, copy this address into your browser:<br>${safeLink(block.url)}</p>`;
    case "fields":
      return html`<table role="presentation" style="border-collapse:collapse;margin:0 0 16px;width:100%;">${block.rows.map(
        ([label, value]) =>
          html`<tr><th scope="row" style="text-align:left;vertical-align:top;padding:6px 12px 6px 0;font-size:14px;color:#6b7280;font-weight:600;white-space:nowrap;">${label}</th><td style="padding:6px 0;font-size:14px;color:#1f2937;white-space:pre-wrap;">${value}</td></tr>`,
      )}</table>`;
    case "list":
      return html`<ul style="margin:0 0 16px;padding-left:20px;font-size:15px;line-height:1.6;color:#1f2937;">${block.items.map(
        (item) => html`<li>${item}</li>`,
      )}</ul>`;
    case "quote":
      return html`<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #d1d5db;color:#374151;font-size:14px;line-height:1.6;white-space:pre-wrap;">${block.text}</blockquote>`;
  }
}

/** A whole e-mail: subject, plain text and HTML, branded, from a heading and blocks. */
export function layout(template: TemplateName, subject: string, heading: string, blocks: Block[]): RenderedEmail {
  const cleanSubject = oneLine(subject, 150);
  const text = [
    BRAND_NAME,
    "",
    heading,
    "",
    ...blocks.flatMap((b) => [renderTextBlock(b), ""]),
    "--",
    `${BRAND_NAME} - ${BRAND_FOOTER}`,
    `${site.address.street}, ${site.address.city}, ${site.address.state} ${site.address.zip}`,
    `${site.phone.display} | ${site.email}`,
    "",
  ].join("\n");

  const body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${cleanSubject}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;">
<table role="presentation" width="100%" style="border-collapse:collapse;background:#f3f4f6;">
<tr><td style="padding:24px 12px;">
<table role="presentation" width="100%" style="border-collapse:collapse;max-width:600px;margin:0 auto;background:#ffffff;border-radius:8px;">
<tr><td style="background:#0f2a4a;padding:20px 24px;border-radius:8px 8px 0 0;color:#ffffff;font-size:20px;font-weight:700;">${BRAND_NAME}</td></tr>
<tr><td style="padding:24px;">
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;color:#0f2a4a;">${heading}</h1>
${blocks.map(renderHtmlBlock)}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;font-size:12px;line-height:1.5;color:#6b7280;">
<strong>${BRAND_NAME}</strong> &middot; ${BRAND_FOOTER}<br>
${creditorAddress}<br>
${site.phone.display} &middot; ${site.email}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { template, subject: cleanSubject, text, html: body.value };
}

