import { formatDay } from "~/domain/formats";
import { site } from "~/content/site";
import { BRAND_NAME, creditorAddress, greeting, layout, pageButton, type RenderedEmail } from "./email-layout.server";

/**
 * What We Need (issue 19): the e-mail that tells an applicant the lender needs something. It is also
 * the notice of incompleteness of Regulation B (12 CFR 1002.9(c)(2)): it says the application cannot
 * go on without the information, lists what is missing, names the date by which it is needed and says
 * the application may be closed as incomplete otherwise. It names only kinds of documents ("Pay Stub",
 * "Question"): never the staff's note (it may repeat the applicant's details), a name, an amount or
 * anything else from the application. The details are on the site, behind the applicant's sign-in.
 */

/** "June 3, 2026" for a 'yyyy-MM-dd' calendar date. */
export function longDate(isoDate: string): string {
  return formatDay(isoDate);
}

export function documentsRequestedEmail(data: { applicationId: string; itemLabels: readonly string[]; dueDate: string; baseUrl: string }): RenderedEmail {
  const due = longDate(data.dueDate);
  return layout("documents-requested", `${BRAND_NAME}: we need more information for your application`, "We need more information", [
    greeting(""),
    {
      kind: "p",
      text: `Thank you for your application with ${BRAND_NAME}. We need the following before we can continue reviewing it:`,
    },
    { kind: "list", items: data.itemLabels.map((label) => label) },
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
