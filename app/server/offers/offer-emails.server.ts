import { formatDay } from "~/domain/formats";
import { formatMoney, formatRate } from "~/domain/money";
import { loanTypeLabel } from "~/domain/labels";

import { BRAND_NAME, creditorAddress, greeting, layout, pageButton, type Block, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { ECOA_NOTICE, statementOfReasonsBlocks } from "~/server/platform/mail/templates.server";

/**
 * The applicant's e-mails when an offer closes without being signed: declined by them or
 * expired. A Counteroffer that is not accepted is an adverse action (Reg B, 12 CFR 1002.9(a)(1)(iv)),
 * so its e-mail is a notice of action taken, built like the denial's (applicationDeniedEmail: the
 * creditor's name and address, the counteroffer's reasons, the right to a statement of reasons, the
 * ECOA notice); a plain offer only gets a short confirmation or courtesy notice. The offered terms
 * named here are what the applicant already saw on the page; never an account number, never an SSN.
 */

export type ClosedOfferEmailData = {
  applicantName: string;
  loanType: string;
  applicationId: string;
  baseUrl: string;
  /** What the application asked for (dollars, as stored on the application). */
  requestedAmountCents: number;
  /** The offer's terms. */
  amountCents: number;
  noteRateMilli: number;
  termMonths: number;
  counterofferReasons: readonly string[];
  /** When it was declined or expired. */
  decidedAt: Date;
};

const longDate = (d: Date) => formatDay(d);
const applicationPath = (id: string) => `/dashboard/applications/${id}`;

function offeredTerms(data: ClosedOfferEmailData): string {
  return `${formatMoney(data.amountCents)} at ${formatRate(data.noteRateMilli)}% for ${data.termMonths} months`;
}

/** A Reg B notice of action taken on a Counteroffer that was not accepted. */
function counterofferNotice(template: "offer-declined-notice" | "offer-expired-notice", data: ClosedOfferEmailData): RenderedEmail {
  const declined = template === "offer-declined-notice";
  const blocks: Block[] = [
    greeting(data.applicantName),
    {
      kind: "p",
      text: `Thank you for your ${loanTypeLabel(data.loanType)} application with ${BRAND_NAME}. We were unable to approve it on the terms you requested, and instead made you a Counteroffer of ${offeredTerms(data)}. ${
        declined ? "You declined the Counteroffer" : "The Counteroffer expired without being signed"
      }, so no credit will be extended on this application.`,
    },
    {
      kind: "fields",
      rows: [
        ["Action taken", declined ? "Counteroffer declined by you; credit not extended on the terms requested" : "Counteroffer expired; credit not extended on the terms requested"],
        ["Date", longDate(data.decidedAt)],
        ["Amount requested", formatMoney(data.requestedAmountCents)],
        ["Counteroffer", offeredTerms(data)],
        ["Reference", data.applicationId],
        ["Creditor", `${BRAND_NAME}, ${creditorAddress}`],
      ],
    },
    ...statementOfReasonsBlocks(data.counterofferReasons, "why we could not offer the terms you requested"),
    { kind: "strong", text: "Your rights" },
    {
      kind: "p",
      text: "This decision does not prevent you from applying again in the future. You may also ask us any question about it, and you are welcome to submit a new application if your circumstances change.",
    },
    ECOA_NOTICE,
    pageButton("View your application", data.baseUrl, applicationPath(data.applicationId)),
  ];
  return layout(template, `Notice of action taken on your ${BRAND_NAME} application`, "Notice of action taken: Counteroffer not accepted", blocks);
}

/** To the applicant: they declined their Counteroffer (a Reg B notice of action taken with the reasons). */
export function offerDeclinedNoticeEmail(data: ClosedOfferEmailData): RenderedEmail {
  return counterofferNotice("offer-declined-notice", data);
}

/** To the applicant: their Counteroffer expired unsigned (a Reg B notice of action taken with the reasons). */
export function offerExpiredNoticeEmail(data: ClosedOfferEmailData): RenderedEmail {
  return counterofferNotice("offer-expired-notice", data);
}

/** To the applicant: they declined a plain offer (the terms they asked for); a confirmation. */
export function offerDeclinedEmail(data: ClosedOfferEmailData): RenderedEmail {
  return layout("offer-declined", `You declined your ${BRAND_NAME} loan offer`, "Your loan offer was declined", [
    greeting(data.applicantName),
    { kind: "p", text: `This confirms that you declined our offer of ${offeredTerms(data)} on ${longDate(data.decidedAt)}. No loan will be made on this application.` },
    { kind: "fields", rows: [["Reference", data.applicationId]] },
    {
      kind: "p",
      text: "If you declined by mistake or change your mind, you are welcome to contact us or to submit a new application.",
    },
    pageButton("View your application", data.baseUrl, applicationPath(data.applicationId)),
  ]);
}

/** To the applicant: a plain offer expired unsigned; a courtesy notice. */
export function offerExpiredEmail(data: ClosedOfferEmailData): RenderedEmail {
  return layout("offer-expired", `Your ${BRAND_NAME} loan offer has expired`, "Your loan offer has expired", [
    greeting(data.applicantName),
    {
      kind: "p",
      text: `Our offer of ${offeredTerms(data)} expired on ${longDate(data.decidedAt)} without being signed, so it can no longer be accepted.`,
    },
    { kind: "fields", rows: [["Reference", data.applicationId]] },
    { kind: "p", text: "If you still need the loan, contact us or submit a new application." },
    pageButton("View your application", data.baseUrl, applicationPath(data.applicationId)),
  ]);
}
