import { formatDay } from "~/domain/formats";
import { site } from "~/content/site";
import { CONVERSATION_LIMITS, type RequestItemKind } from "~/domain/conversation-enums";
import { requestItemKindLabel } from "~/domain/labels";
import { isDocumentKind } from "~/domain/validation/conversation-rules";
import { BRAND_NAME, creditorAddress, greeting, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * What We Need: the e-mails about the items a lender asks for. The request is also the notice
 * of incompleteness of Regulation B (12 CFR 1002.9(c)(2)): it says the application cannot go on without
 * the information, lists what is missing item by item in plain words, names the date by which it is
 * needed and says the application may be closed as incomplete otherwise. The rejection of an answer says
 * which item was not accepted, the staff's reason, and what to do.
 *
 * They greet the applicant by first name and name only kinds of documents and the staff's reason for a
 * rejection: never a staff note (it may repeat the applicant's details), the text of a question or of an
 * answer, a file name, an amount or anything else from the application. The details are on the site,
 * behind the applicant's sign-in.
 */

/** "June 3, 2026" for a 'yyyy-MM-dd' calendar date. */
export function longDate(isoDate: string): string {
  return formatDay(isoDate);
}

/** One requested item in plain words: what to do for it (a question is one to answer, not a "Question"). */
export function requestedItemWords(kind: RequestItemKind): string {
  if (!isDocumentKind(kind)) return "Answer a question from your loan specialist (you can read it and reply on your application's page)";
  return `${requestItemKindLabel(kind)}: upload a copy (one or more files, up to ${CONVERSATION_LIMITS.filesPerItem})`;
}

export function documentsRequestedEmail(data: {
  applicantName: string;
  applicationId: string;
  kinds: readonly (RequestItemKind)[];
  dueDate: string;
  baseUrl: string;
}): RenderedEmail {
  const due = longDate(data.dueDate);
  return layout("documents-requested", `${BRAND_NAME}: we need more information for your application`, "We need more information", [
    greeting(data.applicantName),
    {
      kind: "p",
      text: `Thank you for your application with ${BRAND_NAME}. We need the following before we can continue reviewing it:`,
    },
    { kind: "list", items: data.kinds.map(requestedItemWords) },
    { kind: "strong", text: `Please provide it by ${due}.` },
    {
      kind: "p",
      text: `If we do not receive it by ${due}, we may close your application as incomplete. You can upload documents and answer questions on your application's page:`,
    },
    pageButton("View What We Need", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
    {
      kind: "small",
      text: `This is a notice of incomplete application from ${BRAND_NAME}, ${creditorAddress}. Questions: ${site.phone.display} or ${site.email}.`,
    },
  ]);
}

/**
 * A document (or an answer to a question) was not accepted: which one, the staff's reason, and what to
 * do: send it again on the application's page by the item's due date (or as soon as possible once it
 * has passed, since the application may then be closed as incomplete).
 */
export function answerRejectedEmail(data: {
  applicantName: string;
  kind: RequestItemKind;
  reason: string;
  dueDate: string;
  applicationId: string;
  baseUrl: string;
  /** Today, 'yyyy-MM-dd' (UTC). */
  today: string;
}): RenderedEmail {
  const document = isDocumentKind(data.kind);
  const label = requestItemKindLabel(data.kind);
  const what = document ? `the ${label} you uploaded` : "your answer to our question";
  const when = data.dueDate >= data.today ? `by ${longDate(data.dueDate)}` : "as soon as possible (the due date has passed, so your application may be closed as incomplete)";
  return layout(
    "answer-rejected",
    document ? `${BRAND_NAME}: we could not accept your ${label}` : `${BRAND_NAME}: we could not accept your answer`,
    document ? "A document was not accepted" : "An answer was not accepted",
    [
      greeting(data.applicantName),
      { kind: "p", text: `We reviewed ${what} for your application and could not accept it.` },
      {
        kind: "fields",
        rows: [
          ["Not accepted", document ? label : "Your answer to a question"],
          ["Reason", data.reason],
        ],
      },
      { kind: "strong", text: "What to do" },
      {
        kind: "p",
        text: document
          ? `Please upload a new ${label} on your application's page ${when}. You can add up to ${CONVERSATION_LIMITS.filesPerItem} files.`
          : `Please answer the question again on your application's page ${when}.`,
      },
      pageButton("View What We Need", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
      { kind: "small", text: `Questions: ${site.phone.display} or ${site.email}.` },
    ],
  );
}
