import { site } from "~/content/site";

/**
 * E-mail templates: pure functions from data to a subject, a plain-text body and an HTML body.
 *
 * Rules every template keeps:
 * - Every interpolated value goes through `escapeHtml` in the HTML body (the `html` tagged template
 *   below does it automatically; only `raw(...)` fragments built by this module bypass it).
 * - Subjects never carry line breaks (header injection) and stay short.
 * - No personal data beyond what the recipient already owns: never an SSN, a bank or routing number,
 *   a date of birth or an income figure. The lender's notification names the applicant and the loan
 *   request only; the full file is behind the admin sign-in.
 * - Links are absolute, built from the `baseUrl` passed in (getConfig().publicUrl at the call site),
 *   so the functions stay pure and testable.
 */

export type TemplateName =
  | "verification-code"
  | "password-reset"
  | "password-changed"
  | "application-received"
  | "application-notification"
  | "application-approved"
  | "application-denied"
  | "contact-message";

/** What a template produces; spread it into enqueueEmail together with `to`. */
export type RenderedEmail = {
  template: TemplateName;
  subject: string;
  text: string;
  html: string;
};

export const BRAND_NAME = site.name; // "Private Loans"
export const BRAND_FOOTER = site.footerLine; // "Your Trusted Private Lending Partner"

/** Minutes a sign-up verification code stays valid (the auth module must use the same value). */
export const VERIFICATION_CODE_VALID_MINUTES = 10;
/** Minutes a password-reset link stays valid (the auth module must use the same value). */
export const PASSWORD_RESET_VALID_MINUTES = 60;

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
function oneLine(value: unknown, max = 120): string {
  // eslint-disable-next-line no-control-regex
  const s = String(value ?? "").replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** "$50,000.00" from a number or a numeric string (PostgreSQL numeric arrives as a string). */
export function formatUsd(amount: number | string): string {
  const n = typeof amount === "number" ? amount : Number(amount);
  return Number.isFinite(n) ? usd.format(n) : String(amount);
}

const LOAN_TYPE_LABELS: Record<string, string> = {
  personal: "Personal Loan",
  business: "Business Loan",
  private: "Private Loan",
  "hard-money": "Hard Money / Bridge Loan",
  "auto-loans": "Auto Loan",
  "debt-consolidation": "Debt Consolidation Loan",
  "home-improvement": "Home Improvement Loan",
};

export function loanTypeLabel(loanType: string): string {
  return LOAN_TYPE_LABELS[loanType] ?? loanType;
}

const EMPLOYMENT_LABELS: Record<string, string> = {
  "full-time": "Employed full-time",
  "part-time": "Employed part-time",
  "self-employed": "Self-employed",
  retired: "Retired",
  unemployed: "Unemployed",
};

function employmentLabel(status: string): string {
  return EMPLOYMENT_LABELS[status] ?? status;
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

function firstName(fullName: string): string {
  return oneLine(fullName).split(" ")[0] || "there";
}

const creditorAddress = `${site.address.street}, ${site.address.city}, ${site.address.state} ${site.address.zip}`;

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

type Block =
  | { kind: "p"; text: string }
  | { kind: "strong"; text: string }
  | { kind: "code"; text: string }
  | { kind: "button"; label: string; url: string }
  | { kind: "fields"; rows: [label: string, value: string][] }
  | { kind: "list"; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "small"; text: string };

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

function layout(template: TemplateName, subject: string, heading: string, blocks: Block[]): RenderedEmail {
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

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

/** Sign-up: the 6-digit code, valid 10 minutes. */
export function verificationCodeEmail(data: { code: string }): RenderedEmail {
  if (!/^\d{6}$/.test(data.code)) throw new Error("verification code must be 6 digits");
  return layout("verification-code", `Your ${BRAND_NAME} verification code`, "Verify your e-mail address", [
    { kind: "p", text: `Use this code to finish creating your ${BRAND_NAME} account:` },
    { kind: "code", text: data.code },
    { kind: "p", text: `The code is valid for ${VERIFICATION_CODE_VALID_MINUTES} minutes and can be used once.` },
    {
      kind: "small",
      text: "If you did not try to create an account, you can ignore this e-mail: no account is created without the code. Never share this code with anyone; we will never ask you for it.",
    },
  ]);
}

/** Password reset: a link (carrying the reset token) valid 1 hour. */
export function passwordResetEmail(data: { resetUrl: string }): RenderedEmail {
  return layout("password-reset", `Reset your ${BRAND_NAME} password`, "Reset your password", [
    { kind: "p", text: "We received a request to reset the password of your account. Choose a new password here:" },
    { kind: "button", label: "Reset password", url: data.resetUrl },
    { kind: "p", text: `This link is valid for 1 hour and works once.` },
    {
      kind: "small",
      text: "If you didn't ask to reset your password, ignore this e-mail: your password stays as it is.",
    },
  ]);
}

/** Notice after a password change, with a way back in if it was not the account holder. */
export function passwordChangedEmail(data: { name?: string | null; baseUrl: string; changedAt?: Date }): RenderedEmail {
  const when = data.changedAt
    ? ` on ${data.changedAt.toLocaleString("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" })} (UTC)`
    : "";
  return layout("password-changed", `Your ${BRAND_NAME} password was changed`, "Your password was changed", [
    { kind: "p", text: `Hello ${data.name ? firstName(data.name) : "there"},` },
    { kind: "p", text: `The password of your ${BRAND_NAME} account was changed${when}.` },
    {
      kind: "p",
      text: `If you made this change, no action is needed. If you did not, reset your password now and contact us at ${site.phone.display}.`,
    },
    { kind: "button", label: "Reset password", url: absoluteUrl(data.baseUrl, "/auth") },
  ]);
}

/** The applicant's confirmation that the application arrived. */
export function applicationReceivedEmail(data: {
  applicantName: string;
  loanType: string;
  requestedAmount: number | string;
  applicationId: string;
  baseUrl: string;
}): RenderedEmail {
  return layout("application-received", `We received your ${BRAND_NAME} application`, "Application received", [
    { kind: "p", text: `Hello ${firstName(data.applicantName)},` },
    {
      kind: "p",
      text: "Thank you for applying. Your application and documents arrived safely, and a loan specialist will contact you within 24-48 hours.",
    },
    {
      kind: "fields",
      rows: [
        ["Loan type", loanTypeLabel(data.loanType)],
        ["Amount requested", formatUsd(data.requestedAmount)],
        ["Reference", data.applicationId],
      ],
    },
    { kind: "p", text: "You can follow the status of your application on your dashboard:" },
    { kind: "button", label: "Open my dashboard", url: absoluteUrl(data.baseUrl, "/dashboard") },
  ]);
}

/** To the lender: a new application (the spec's send-application-notification body). */
export function applicationNotificationEmail(data: {
  applicantName: string;
  applicantEmail: string;
  loanType: string;
  requestedAmount: number | string;
  purpose: string;
  employmentStatus: string;
  applicationId: string;
  baseUrl: string;
}): RenderedEmail {
  return layout(
    "application-notification",
    `New loan application: ${oneLine(data.applicantName, 60)} - ${loanTypeLabel(data.loanType)} ${formatUsd(data.requestedAmount)}`,
    "New loan application",
    [
      { kind: "p", text: "A new loan application was submitted and is waiting for review." },
      {
        kind: "fields",
        rows: [
          ["Applicant", data.applicantName],
          ["E-mail", data.applicantEmail],
          ["Loan type", loanTypeLabel(data.loanType)],
          ["Amount requested", formatUsd(data.requestedAmount)],
          ["Employment", employmentLabel(data.employmentStatus)],
          ["Application ID", data.applicationId],
        ],
      },
      { kind: "strong", text: "Purpose" },
      { kind: "quote", text: data.purpose },
      { kind: "p", text: "Documents, bank details and the full file are in the admin area (sign-in required):" },
      { kind: "button", label: "Review applications", url: absoluteUrl(data.baseUrl, "/admin") },
    ],
  );
}

/** To the applicant: approved (the spec's send-approval-notification body). */
export function applicationApprovedEmail(data: {
  applicantName: string;
  loanType: string;
  approvedAmount: number | string;
  applicationId: string;
  baseUrl: string;
}): RenderedEmail {
  return layout("application-approved", `Your ${BRAND_NAME} application is approved`, "Congratulations, your loan is approved!", [
    { kind: "p", text: `Hello ${firstName(data.applicantName)},` },
    { kind: "p", text: "We are pleased to tell you that your loan application has been approved." },
    {
      kind: "fields",
      rows: [
        ["Loan type", loanTypeLabel(data.loanType)],
        ["Approved amount", formatUsd(data.approvedAmount)],
        ["Reference", data.applicationId],
      ],
    },
    {
      kind: "p",
      text: "A loan specialist will contact you about the next steps. Once the final documents are signed, funds are typically available within 1-3 business days.",
    },
    { kind: "button", label: "View my dashboard", url: absoluteUrl(data.baseUrl, "/dashboard") },
  ]);
}

/**
 * To the applicant: the application was denied. A written adverse-action notice in the shape the
 * Equal Credit Opportunity Act (Regulation B, 12 CFR 1002.9) asks for: the action taken, the creditor's
 * name and address, the specific reasons (or the right to ask for them), and the ECOA notice naming
 * the federal agency. Compliance counsel should review the final wording.
 */
export function applicationDeniedEmail(data: {
  applicantName: string;
  loanType: string;
  applicationId: string;
  /** The principal reasons for the decision; empty means they are available on request. */
  reasons: readonly string[];
  decisionDate?: Date;
  baseUrl: string;
}): RenderedEmail {
  const reasons = data.reasons.map((r) => oneLine(r, 300)).filter(Boolean);
  const date = (data.decisionDate ?? new Date()).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
  const blocks: Block[] = [
    { kind: "p", text: `Hello ${firstName(data.applicantName)},` },
    {
      kind: "p",
      text: `Thank you for your ${loanTypeLabel(data.loanType)} application with ${BRAND_NAME}. After careful review, we are unable to approve your application at this time.`,
    },
    {
      kind: "fields",
      rows: [
        ["Decision", "Application denied"],
        ["Date of decision", date],
        ["Reference", data.applicationId],
        ["Creditor", `${BRAND_NAME}, ${creditorAddress}`],
      ],
    },
  ];
  if (reasons.length > 0) {
    blocks.push({ kind: "strong", text: "Principal reason(s) for our decision:" }, { kind: "list", items: reasons });
    blocks.push({
      kind: "p",
      text: `You have the right to a statement of the specific reasons for this decision. If you would like more detail about the reasons above, contact us within 60 days of the date of this notice at ${site.phone.display}, ${site.email} or ${creditorAddress}; we will answer in writing within 30 days of receiving your request.`,
    });
  } else {
    blocks.push({
      kind: "p",
      text: `You have the right to a statement of the specific reasons why your application was denied. To obtain the statement, please contact us within 60 days of the date of this notice at ${site.phone.display}, ${site.email} or ${creditorAddress}. We will send you a written statement of reasons within 30 days of receiving your request.`,
    });
  }
  blocks.push(
    { kind: "strong", text: "Your rights" },
    {
      kind: "p",
      text: "This decision does not prevent you from applying again in the future. You may also ask us any question about this decision, and you are welcome to submit a new application if your circumstances change.",
    },
    {
      kind: "small",
      text: "NOTICE: The federal Equal Credit Opportunity Act prohibits creditors from discriminating against credit applicants on the basis of race, color, religion, national origin, sex, marital status, age (provided the applicant has the capacity to enter into a binding contract); because all or part of the applicant's income derives from any public assistance program; or because the applicant has in good faith exercised any right under the Consumer Credit Protection Act. The federal agency that administers compliance with this law concerning this creditor is the Federal Trade Commission, Consumer Response Center, Washington, DC 20580.",
    },
    { kind: "button", label: "View my dashboard", url: absoluteUrl(data.baseUrl, "/dashboard") },
  );
  return layout("application-denied", `Decision on your ${BRAND_NAME} application`, "Notice of action taken on your application", blocks);
}

/** To the lender: a message from the contact form (the spec's send-contact-email body). */
export function contactMessageEmail(data: {
  name: string;
  email: string;
  phone?: string | null;
  subject: string;
  message: string;
}): RenderedEmail {
  return layout("contact-message", `Contact form: ${oneLine(data.subject, 80)}`, "New message from the contact form", [
    {
      kind: "fields",
      rows: [
        ["Name", data.name],
        ["E-mail", data.email],
        ["Phone", data.phone?.trim() ? data.phone : "(not given)"],
        ["Subject", data.subject],
      ],
    },
    { kind: "strong", text: "Message" },
    { kind: "quote", text: data.message },
    { kind: "small", text: `Reply to the sender at ${oneLine(data.email)}; this e-mail was sent by the website.` },
  ]);
}
