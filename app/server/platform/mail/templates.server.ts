import { site } from "~/content/site";
import { denialSourceNotice, type DenialSource } from "~/domain/adverse-action";
import { formatDay, formatMoment, formatUsd } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { employmentLabel, loanTypeLabel } from "~/domain/labels";
import { describeTerms, type TermsInDollars } from "~/domain/loan-offers";
import { BRAND_NAME, creditorAddress, greeting, layout, oneLine, pageButton, type Block, type RenderedEmail } from "./email-layout.server";

export { absoluteUrl, BRAND_FOOTER, BRAND_NAME, escapeHtml, type RenderedEmail, type TemplateName } from "./email-layout.server";

/**
 * E-mail templates: pure functions from data to a subject, a plain-text body and an HTML body. The
 * frame they share (escaping, blocks, layout) is in email-layout.server.ts; labels and amounts come
 * from ~/domain/labels and ~/domain/formats, as on screen.
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

/** Minutes a sign-up verification code stays valid (the auth module must use the same value). */
export const VERIFICATION_CODE_VALID_MINUTES = 10;
/** Minutes a password-reset link stays valid (the auth module must use the same value). */
export const PASSWORD_RESET_VALID_MINUTES = 60;

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
    ? ` on ${formatMoment(data.changedAt)}`
    : "";
  return layout("password-changed", `Your ${BRAND_NAME} password was changed`, "Your password was changed", [
    greeting(data.name ?? ""),
    { kind: "p", text: `The password of your ${BRAND_NAME} account was changed${when}.` },
    {
      kind: "p",
      text: `If you made this change, no action is needed. If you did not, reset your password now and contact us at ${site.phone.display}.`,
    },
    // A new password does not touch passkeys: after a takeover scare, one left behind is a way back in.
    { kind: "p", text: "Passkeys on your account still sign in after a password change. If someone else may have used your account, remove them under Passkeys on your account page." },
    pageButton("Reset password", data.baseUrl, "/auth"),
  ]);
}

/** What every e-mail about one application names; `baseUrl` builds its links. */
type AboutApplication = { applicantName: string; loanType: string; applicationId: string; baseUrl: string };

/** The facts of an e-mail about one application: its loan type first, then the message's own rows, its reference last. */
function applicationFacts(data: AboutApplication, ...rows: [label: string, value: string][]): Block {
  return { kind: "fields", rows: [["Loan type", loanTypeLabel(data.loanType)], ...rows, ["Reference", data.applicationId]] };
}

/**
 * The facts of an action taken on an application, as a notice of action taken gives them (Regulation B,
 * 12 CFR 1002.9(a)(2)): what was done, on which day, the application's reference and the creditor's name
 * and address. The denial, the notice of an incomplete application and the withdrawal confirmation show them.
 */
export function actionTakenFacts(action: [label: string, value: string], day: [label: string, value: string], applicationId: string): Block {
  return { kind: "fields", rows: [action, day, ["Reference", applicationId], ["Creditor", `${BRAND_NAME}, ${creditorAddress}`]] };
}

/** The applicant's confirmation that the application arrived. */
export function applicationReceivedEmail(data: AboutApplication & { requestedAmountCents: number }): RenderedEmail {
  return layout("application-received", `We received your ${BRAND_NAME} application`, "Application received", [
    greeting(data.applicantName),
    {
      kind: "p",
      text: "Thank you for applying. Your application and documents arrived safely, and a loan specialist will contact you within 24-48 hours.",
    },
    applicationFacts(data, ["Amount requested", formatMoney(data.requestedAmountCents)]),
    { kind: "p", text: "You can follow the status of your application on your dashboard:" },
    pageButton("Open my dashboard", data.baseUrl, "/dashboard"),
  ]);
}

/** To the lender: a new application (the spec's send-application-notification body). */
export function applicationNotificationEmail(
  data: AboutApplication & { applicantEmail: string; requestedAmountCents: number; purpose: string; employmentStatus: string },
): RenderedEmail {
  return layout(
    "application-notification",
    `New loan application: ${oneLine(data.applicantName, 60)} - ${loanTypeLabel(data.loanType)} ${formatMoney(data.requestedAmountCents)}`,
    "New loan application",
    [
      { kind: "p", text: "A new loan application was submitted and is waiting for review." },
      {
        kind: "fields",
        rows: [
          ["Applicant", data.applicantName],
          ["E-mail", data.applicantEmail],
          ["Loan type", loanTypeLabel(data.loanType)],
          ["Amount requested", formatMoney(data.requestedAmountCents)],
          ["Employment", employmentLabel(data.employmentStatus)],
          ["Application ID", data.applicationId],
        ],
      },
      { kind: "strong", text: "Purpose" },
      { kind: "quote", text: data.purpose },
      { kind: "p", text: "Documents, bank details and the full file are in the admin area (sign-in required):" },
      pageButton("Review applications", data.baseUrl, "/admin"),
    ],
  );
}

/**
 * To the applicant: approved on the terms they asked for (the spec's send-approval-notification
 * body), with the loan offer waiting on their application page: the offer's figures are not
 * in the e-mail (they are disclosed on the page, after the E-SIGN consent), only that it exists and
 * until when it can be signed. A counteroffer has its own e-mail (counterofferEmail).
 */
export function applicationApprovedEmail(data: AboutApplication & { approvedAmount: number | string; expiresAt?: Date }): RenderedEmail {
  const until = data.expiresAt ? formatDay(data.expiresAt) : undefined;
  return layout("application-approved", `Your ${BRAND_NAME} application is approved`, "Congratulations, your loan is approved!", [
    greeting(data.applicantName),
    { kind: "p", text: "We are pleased to tell you that your loan application has been approved." },
    applicationFacts(data, ["Approved amount", formatUsd(data.approvedAmount)]),
    {
      kind: "p",
      text: `Your loan offer is waiting on your application page: review it, then choose Review and Sign to sign the loan agreement${until ? ` by ${until}` : ""}, or Decline Offer. Once the agreement is signed, funds are typically available within 1-3 business days.`,
    },
    pageButton("View your loan offer", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
  ]);
}

/**
 * To the applicant: a counteroffer (terms other than those asked for; ~/domain/loan-offers
 * isCounteroffer). Never announced as an approval: its own subject and heading, what was asked and
 * what is offered side by side, and the way to accept or decline it on the application page. The
 * reasons and the Truth in Lending figures are on that page, after the E-SIGN consent.
 */
export function counterofferEmail(data: AboutApplication & { requested: TermsInDollars; offered: TermsInDollars; expiresAt?: Date }): RenderedEmail {
  const until = data.expiresAt ? formatDay(data.expiresAt) : undefined;
  return layout("application-counteroffer", `Counteroffer on your ${BRAND_NAME} application`, "Counteroffer", [
    greeting(data.applicantName),
    {
      kind: "p",
      text: "Thank you for your application. We cannot make the loan on the terms you asked for, but we can offer you a loan on other terms: this is a counteroffer, not an approval of your request.",
    },
    applicationFacts(data, ["You asked for", describeTerms(data.requested)], ["We offer", describeTerms(data.offered)]),
    {
      kind: "p",
      text: `Your application page explains why the terms differ. If you accept them, choose Review and Sign there to sign the loan agreement${until ? ` by ${until}` : ""}; if not, choose Decline Offer. Nothing changes until you decide.`,
    },
    pageButton("Review the counteroffer", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
  ]);
}

/**
 * Reg B (12 CFR 1002.9(a)(2)): the principal reasons for an adverse action and the applicant's right
 * to a statement of them, or, without reasons, how to ask for that statement. Shared by every notice
 * of action taken (the denial here, the declined or expired counteroffer in offer-emails.server.ts).
 */
export function statementOfReasonsBlocks(reasons: readonly string[], withoutReasons: string): Block[] {
  const listed = reasons.map((r) => oneLine(r, 300)).filter(Boolean);
  if (listed.length === 0) {
    return [
      {
        kind: "p",
        text: `You have the right to a statement of the specific reasons ${withoutReasons}. To obtain the statement, please contact us within 60 days of the date of this notice at ${site.phone.display}, ${site.email} or ${creditorAddress}. We will send you a written statement of reasons within 30 days of receiving your request.`,
      },
    ];
  }
  return [
    { kind: "strong", text: "Principal reason(s) for our decision:" },
    { kind: "list", items: listed },
    {
      kind: "p",
      text: `You have the right to a statement of the specific reasons for this decision. If you would like more detail about the reasons above, contact us within 60 days of the date of this notice at ${site.phone.display}, ${site.email} or ${creditorAddress}; we will answer in writing within 30 days of receiving your request.`,
    },
  ];
}

/** The ECOA notice (12 CFR 1002.9(b)(1)) every notice of action taken ends with. */
export const ECOA_NOTICE: Block = {
  kind: "small",
  text: "NOTICE: The federal Equal Credit Opportunity Act prohibits creditors from discriminating against credit applicants on the basis of race, color, religion, national origin, sex, marital status, age (provided the applicant has the capacity to enter into a binding contract); because all or part of the applicant's income derives from any public assistance program; or because the applicant has in good faith exercised any right under the Consumer Credit Protection Act. The federal agency that administers compliance with this law concerning this creditor is the Federal Trade Commission, Consumer Response Center, Washington, DC 20580.",
};

/**
 * To the applicant: the application was denied. A written adverse-action notice in the shape the
 * Equal Credit Opportunity Act (Regulation B, 12 CFR 1002.9) asks for: the action taken, the creditor's
 * name and address, the specific reasons (or the right to ask for them), and the ECOA notice naming
 * the federal agency. Compliance counsel should review the final wording.
 */
export function applicationDeniedEmail(
  data: AboutApplication & {
    /** The principal reasons for the decision; empty means they are available on request. */
    reasons: readonly string[];
    /** Where the information came from (the FCRA disclosures when a consumer report was used); none: the applicant's own. */
    source?: DenialSource | null;
    decisionDate?: Date;
  },
): RenderedEmail {
  const date = formatDay(data.decisionDate ?? new Date());
  const blocks: Block[] = [
    greeting(data.applicantName),
    {
      kind: "p",
      text: `Thank you for your ${loanTypeLabel(data.loanType)} application with ${BRAND_NAME}. After careful review, we are unable to approve your application at this time.`,
    },
    actionTakenFacts(["Decision", "Application denied"], ["Date of decision", date], data.applicationId),
  ];
  blocks.push(
    ...statementOfReasonsBlocks(data.reasons, "why your application was denied"),
    { kind: "strong", text: "Where the information came from" },
    ...denialSourceNotice(data.source),
    { kind: "strong", text: "Your rights" },
    {
      kind: "p",
      text: "This decision does not prevent you from applying again in the future. You may also ask us any question about this decision, and you are welcome to submit a new application if your circumstances change.",
    },
    ECOA_NOTICE,
    pageButton("View my dashboard", data.baseUrl, "/dashboard"),
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
