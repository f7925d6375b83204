import { Download, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { useEachAnswer } from "~/components/use-each-answer";
import { Button } from "~/components/ui/button";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PendingButton } from "~/components/ui/pending-button";
import { CLOSE_ACCOUNT_CONFIRMATION } from "~/domain/validation/account-constants";
import type { AccountDataActionData } from "~/domain/validation/account-data";
import { applicationReference, formatDay, formatMoment } from "~/domain/formats";
import type { AccountDataView } from "~/domain/views/account";
import { AccountSection } from "./account-section";

/** Where the section posts (both intents). */
export const ACCOUNT_DATA_PATH = "/account/data";

const dateTime = (iso: string) => formatMoment(iso);
const dateOnly = (value: string) => (/^\d{4}-\d{2}-\d{2}/.test(value) ? formatDay(value) : value);

/** Download My Data and Close My Account on /account. */
export function DataSection({ data }: { data: AccountDataView }) {
  return (
    <AccountSection titleId="account-data" title="Your Data" className="mt-10 flex flex-col gap-8">
      <DownloadMyData data={data} />
      <CloseMyAccount data={data} />
    </AccountSection>
  );
}

function ExportStatus({ latest }: { latest: AccountDataView["latestExport"] }) {
  if (!latest) return null;
  switch (latest.status) {
    case "pending":
      return <p className="text-sm text-slate-700">We are preparing your file; we will e-mail you a link.</p>;
    case "ready":
      return (
        <p className="text-sm text-slate-700">
          Your file is ready: use the link we e-mailed you. The link is valid until {latest.expiresAt ? dateTime(latest.expiresAt) : "24 hours after it was sent"}.
        </p>
      );
    case "expired":
      return <p className="text-sm text-slate-700">Your last file's link has expired. Request a new file if you need one.</p>;
    case "failed":
      return <p className="text-sm text-slate-700">{latest.message ?? "We could not prepare your file. Please request it again."}</p>;
  }
}

function DownloadMyData({ data }: { data: AccountDataView }) {
  const fetcher = useFetcher<AccountDataActionData>({ key: "request-export" });
  const pending = fetcher.state !== "idle";
  useActionToast(fetcher.data);
  return (
    <div className="flex flex-col gap-3" data-testid="download-my-data">
      <h3 className="text-base font-semibold text-primary">Download My Data</h3>
      <p className="text-sm text-slate-700">
        Get a ZIP file of everything we hold about you: your profile, applications (your SSN and bank numbers show their last 4 digits only), documents,
        messages, consents and payments. We prepare it in the background and e-mail you a link that works for 24 hours while you are signed in.
      </p>
      <div role="status" aria-live="polite">
        <ExportStatus latest={data.latestExport} />
      </div>
      <fetcher.Form method="post" action={ACCOUNT_DATA_PATH}>
        <input type="hidden" name="intent" value="request-export" />
        <PendingButton type="submit" variant="outline" pending={pending} icon={<Download aria-hidden="true" />}>
          Download My Data
        </PendingButton>
      </fetcher.Form>
    </div>
  );
}

function CloseMyAccount({ data }: { data: AccountDataView }) {
  const fetcher = useFetcher<AccountDataActionData>({ key: "close-account" });
  const [open, setOpen] = useState(false);
  const pending = fetcher.state !== "idle";
  useActionToast(fetcher.data);
  const answer = fetcher.data;
  useEachAnswer(answer, (reply) => {
    // Closed: the session is gone; a full load of the sign-in page shows the signed-out header too.
    if (reply.ok && reply.redirectTo) window.location.assign(reply.redirectTo);
  });
  const closure = data.closure;
  const errors = answer && !answer.ok ? answer.fieldErrors : undefined;

  return (
    <div className="flex flex-col gap-3" data-testid="close-my-account">
      <h3 className="text-base font-semibold text-primary">Close My Account</h3>
      <p className="text-sm text-slate-700">Closing your account signs you out everywhere. It cannot be undone.</p>
      <div className="text-sm text-slate-700">
        <p className="font-medium">Deleted now:</p>
        <ul className="ml-5 list-disc">
          {closure.deletedNow.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </div>
      <div className="text-sm text-slate-700">
        <p className="font-medium">Kept because the law requires it, for {closure.keptPeriod}, then deleted:</p>
        <ul className="ml-5 list-disc">
          <li>Your loan applications, their documents and bank accounts, loan offers, loans and payments</li>
          <li>Your E-SIGN consents, payment authorizations and privacy notice acceptances</li>
          <li>Our audit log of what happened to your records</li>
        </ul>
        {closure.kept.length > 0 ? (
          <ul className="mt-2 ml-5 list-disc" aria-label="Your applications kept">
            {closure.kept.map((k, i) => (
              <li key={`${k.record}-${i}`}>
                {k.record}: kept until {dateOnly(k.until)}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {closure.blocker ? (
        <p className="text-sm font-medium text-destructive" data-testid="close-account-blocked">
          {closure.blocker}
          {closure.blockerApplicationId ? (
            <>
              {" "}
              <Link to={`/dashboard/applications/${closure.blockerApplicationId}`} className="underline underline-offset-2" data-testid="close-account-blocked-link">
                Open application {applicationReference(closure.blockerApplicationId)}
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
      <ModalDialog
        open={open}
        onOpenChange={setOpen}
        testId="close-account-dialog"
        title="Close My Account"
        description={`Enter your password and type ${CLOSE_ACCOUNT_CONFIRMATION} to confirm. You will be signed out everywhere.`}
        trigger={
          <Button id="close-my-account" variant="destructive" disabled={closure.blocker !== null}>
            <Trash2 aria-hidden="true" />
            Close My Account
          </Button>
        }
      >
        <fetcher.Form method="post" action={ACCOUNT_DATA_PATH} className="mt-4 flex flex-col gap-2" noValidate>
          <input type="hidden" name="intent" value="close-account" />
          <Field id="close-account-password" label="Password" required errors={errors?.password} liveErrors>
            {(a11y) => <Input {...a11y} type="password" name="password" autoComplete="current-password" required />}
          </Field>
          <Field id="close-account-confirmation" label={`Type ${CLOSE_ACCOUNT_CONFIRMATION} to confirm`} required errors={errors?.confirmation} liveErrors>
            {(a11y) => <Input {...a11y} name="confirmation" autoComplete="off" required />}
          </Field>
          <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <DialogCloseButton disabled={pending}>Keep My Account</DialogCloseButton>
            <PendingButton type="submit" variant="destructive" pending={pending} icon={<Trash2 aria-hidden="true" />}>
              Close My Account
            </PendingButton>
          </div>
        </fetcher.Form>
      </ModalDialog>
    </div>
  );
}
