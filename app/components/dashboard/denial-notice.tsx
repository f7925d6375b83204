import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { NoticePart } from "~/domain/adverse-action";
import type { ApplicantApplicationPage } from "~/domain/views/applicant-application";

/**
 * A denied application's page says what the notice of action taken says: the principal reasons and
 * where the information came from (with the Fair Credit Reporting Act disclosures when a consumer
 * report was used). The parts are the e-mail's (~/domain/adverse-action.ts), so both always agree.
 */
export function DenialNotice({ denial }: { denial: NonNullable<ApplicantApplicationPage["denial"]> }) {
  return (
    <Card data-testid="denial-notice">
      <CardHeader>
        <CardTitle>Notice of Action Taken</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p>We are unable to approve your application at this time.</p>
        {denial.reasons.length > 0 ? (
          <>
            <h3 className="font-semibold">Principal reason(s) for our decision:</h3>
            <ul className="list-disc space-y-1 pl-5" data-testid="denial-reasons">
              {denial.reasons.map((reason) => (
                <li key={reason} className="break-words">
                  {reason}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>You have the right to a statement of the specific reasons why your application was denied: contact us within 60 days of the notice.</p>
        )}
        <h3 className="font-semibold">Where the information came from</h3>
        <div className="flex flex-col gap-3" data-testid="denial-source">
          {denial.source.map((part, index) => (
            <NoticePartView key={index} part={part} />
          ))}
        </div>
      </CardContent>
    </Card>
  );
}

function NoticePartView({ part }: { part: NoticePart }) {
  switch (part.kind) {
    case "p":
      return <p>{part.text}</p>;
    case "strong":
      return <p className="font-semibold">{part.text}</p>;
    case "list":
      return (
        <ul className="list-disc space-y-1 pl-5">
          {part.items.map((item) => (
            <li key={item} className="break-words">
              {item}
            </li>
          ))}
        </ul>
      );
    case "fields":
      return (
        <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[auto_minmax(0,1fr)]">
          {part.rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-muted-foreground">{label}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          ))}
        </dl>
      );
  }
}
