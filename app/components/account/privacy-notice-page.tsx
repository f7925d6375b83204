import { Check } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { PendingButton } from "~/components/ui/pending-button";
import { privacyNoticeDate } from "~/content/legal/privacy-notice";
import type { PrivacyNoticeActionData } from "~/domain/validation/privacy-notice";
import { AccountSection } from "./account-section";

type Props = {
  version: string;
  changes: readonly string[];
  summary: readonly string[];
  acceptedCurrent: boolean;
  canAccept: boolean;
  redirectTo: string;
  actionData: PrivacyNoticeActionData | undefined;
};

/** One part of the notice: its heading over a bulleted list (and, for the summary, the full text's link). */
function NoticePart({ titleId, title, items, children }: { titleId: string; title: string; items: readonly string[]; children?: ReactNode }) {
  return (
    <AccountSection titleId={titleId} title={title} className="flex flex-col gap-2">
      <ul className="ml-5 list-disc text-sm text-slate-700">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      {children}
    </AccountSection>
  );
}

/** The changed privacy notice, shown once at the next sign-in: what changed, the notice in brief, the full text's link. */
export function PrivacyNoticePage({ version, changes, summary, acceptedCurrent, canAccept, redirectTo, actionData }: Props) {
  const navigation = useNavigation();
  const heading = useRef<HTMLHeadingElement>(null);
  useActionToast(actionData ? { toast: actionData.toast } : undefined);
  // Arriving from sign-in: the page's heading is where a screen reader should start.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8" data-testid="privacy-notice-page">
      <div>
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-primary focus:outline-none">
          Our Privacy Notice Has Changed
        </h1>
        <p className="mt-1 text-sm text-slate-700">The updated notice is effective {privacyNoticeDate(version)}. Please take a moment to read what changed.</p>
      </div>
      <NoticePart titleId="privacy-changes" title="What Changed" items={changes} />
      <NoticePart titleId="privacy-summary" title="The Notice in Brief" items={summary}>
        <p className="text-sm">
          <Link to="/privacy" className="text-link underline">
            Read the full Privacy Policy
          </Link>
        </p>
      </NoticePart>
      {canAccept ? (
        acceptedCurrent ? (
          <p className="text-sm text-slate-700">You have already read this version.</p>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="accept" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <PendingButton type="submit" pending={navigation.state === "submitting"} icon={<Check aria-hidden="true" />}>
              I Have Read This
            </PendingButton>
          </Form>
        )
      ) : null}
      {acceptedCurrent || !canAccept ? (
        <p className="text-sm">
          <Link to={redirectTo} className="text-link underline">
            Continue
          </Link>
        </p>
      ) : null}
    </div>
  );
}
