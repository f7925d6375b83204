import { FileUp } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { PendingButton } from "~/components/ui/pending-button";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { formatDateTime, formatDay } from "~/domain/formats";
import { ACCOUNT_RESTRICTION_KIND_LABELS } from "~/domain/servicing-enums";
import { ACCOUNT_RESTRICTION_LIMITS, CLEAR_RESTRICTION_INTENT } from "~/domain/validation/account-restriction";
import { ACH_LIMITS } from "~/domain/validation/ach";
import { formatRate, type AccountRestrictionView, type OpenLoanFlag, type ReturnRate, type ReturnRatesPanel } from "~/domain/views/ach-returns";

const cell = "px-3 py-2 align-top";
const fieldClass = "rounded border border-border px-2 py-1";

/** One bad line of a refused return file (line 0: the file as a whole). */
export type ReturnFileLine = { line: number; reason: string };

/** Import Return File: the bank's NACHA return file, uploaded; a refusal lists each bad line. */
export function ImportReturnsForm({ lines }: { lines?: readonly ReturnFileLine[] }) {
  const navigation = useNavigation();
  const importing = navigation.state !== "idle" && navigation.formData?.get("intent") === "import-returns";
  const bad = (lines ?? []).filter((l) => l.line > 0);
  return (
    <section className="mb-8" aria-labelledby="import-returns-heading">
      <h2 id="import-returns-heading" className="mb-3 text-lg font-semibold">
        Import Return File
      </h2>
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="import-returns" />
        <label className="grid gap-1 text-sm">
          <span>The bank&apos;s return file (NACHA, at most 960 KB)</span>
          <input type="file" name="file" required className={fieldClass} />
        </label>
        <PendingButton type="submit" pending={importing} icon={<FileUp aria-hidden="true" />}>
          Import Return File
        </PendingButton>
      </Form>
      {bad.length > 0 ? (
        <div role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900" data-testid="return-file-errors">
          <p className="font-medium">The file was refused and nothing was changed:</p>
          <ul className="mt-1 list-disc pl-5">
            {bad.map((l) => (
              <li key={`${l.line}-${l.reason}`}>
                Line {l.line}: {l.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function RateCell({ rate }: { rate: ReturnRate }) {
  return (
    <td className={cell}>
      <span className={rate.above ? "font-semibold text-red-800" : undefined}>
        {formatRate(rate.rate)} ({rate.returns})
      </span>
      <span className="block text-xs text-muted-foreground">
        {rate.above ? "Above " : "Limit "}
        {formatRate(rate.threshold)}
      </span>
    </td>
  );
}

/** Return Rates: per originator over the window, each rate against Nacha's threshold, marked when above. */
export function ReturnRatesSection({ rates }: { rates: ReturnRatesPanel }) {
  return (
    <section className="mb-8">
      <h2 id="return-rates-heading" className="mb-3 text-lg font-semibold">
        Return Rates (last {rates.windowDays} days, since {formatDay(rates.since)})
      </h2>
      {rates.originators.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">No debit entries were sent in the last {rates.windowDays} days.</p>
      ) : (
        <ScrollingTable labelledBy="return-rates-heading" tableClassName="min-w-[40rem]" testId="ach-return-rates">
          <TableHead columns={["Originator", "Debit Entries", "Returns", "Unauthorised", "Administrative (R02–R04)", "Overall"]} cellClassName={cell} />
          <tbody>
            {rates.originators.map((o) => (
              <tr key={o.originatorId} className="border-t border-border">
                <td className={cell}>{o.originatorId}</td>
                <td className={cell}>{o.debitEntries}</td>
                <td className={cell}>{o.returns}</td>
                <RateCell rate={o.unauthorized} />
                <RateCell rate={o.administrative} />
                <RateCell rate={o.overall} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
    </section>
  );
}

/** Resolve Flag: a required note; posts to the ACH page's action (the flag's own page links back). */
export function ResolveFlagForm({ flag, action }: { flag: OpenLoanFlag; action?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("flagId") === flag.flagId;
  return (
    <Form method="post" action={action} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="resolve-flag" />
      <input type="hidden" name="flagId" value={flag.flagId} />
      <label className="grid gap-1 text-xs">
        <span>What was done</span>
        <input type="text" name="note" required maxLength={ACH_LIMITS.noteMaxLength} className={fieldClass} />
      </label>
      <Button type="submit" size="sm" disabled={busy}>
        Resolve Flag<span className="sr-only"> on the loan of {flag.borrower}</span>
      </Button>
    </Form>
  );
}

/** Flagged Returns: the open flags, with the loan, borrower, code, date and Resolve Flag. */
export function FlaggedReturnsSection({ flags, timeZone, action, heading = "Flagged Returns" }: { flags: readonly OpenLoanFlag[]; timeZone: string; action?: string; heading?: string }) {
  const id = heading === "Flagged Returns" ? "flagged-returns-heading" : "loan-flags-heading";
  return (
    <section className="mb-8">
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {heading} ({flags.length})
      </h2>
      {flags.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">No open flags.</p>
      ) : (
        <ScrollingTable labelledBy={id} tableClassName="min-w-[40rem]" testId="ach-flagged-returns">
          <TableHead columns={["Loan", "Borrower", "Code", "Flagged", "What Happened", "Resolve"]} cellClassName={cell} />
          <tbody>
            {flags.map((f) => (
              <tr key={f.flagId} className="border-t border-border" data-testid="loan-flag">
                <td className={cell}>
                  <a className="underline" href={`/admin/loans/${f.loanId}`}>
                    {f.loanId.slice(0, 8)}
                  </a>
                </td>
                <td className={cell}>{f.borrower}</td>
                <td className={cell}>{f.returnCode ?? "—"}</td>
                <td className={cell}>
                  <time dateTime={f.createdAt}>{formatDateTime(f.createdAt, timeZone, { zone: true })}</time>
                </td>
                <td className={cell}>{f.summary}</td>
                <td className={cell}>
                  <ResolveFlagForm flag={f} action={action} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
    </section>
  );
}

/** Clear Restriction: a required reason; posts to the loan page's action (the account may be debited again). */
export function ClearRestrictionForm({ restriction }: { restriction: AccountRestrictionView }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === CLEAR_RESTRICTION_INTENT && navigation.formData?.get("bankAccountId") === restriction.bankAccountId;
  return (
    <Form method="post" className="mt-1 flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value={CLEAR_RESTRICTION_INTENT} />
      <input type="hidden" name="bankAccountId" value={restriction.bankAccountId} />
      <label className="grid gap-1 text-xs">
        <span>Why it may be debited again</span>
        <input type="text" name="reason" required maxLength={ACCOUNT_RESTRICTION_LIMITS.reasonMaxLength} className={fieldClass} />
      </label>
      <Button type="submit" size="sm" disabled={busy}>
        Clear Restriction<span className="sr-only"> on {restriction.accountMasked ?? "the account"}</span>
      </Button>
    </Form>
  );
}

/**
 * A loan's bank accounts that may not be debited (or used) after a return: kind, code and since when;
 * with `clearable` (the staff loan page), each account the loan uses with Clear Restriction.
 */
export function AccountRestrictionsList({ restrictions, timeZone, clearable = false }: { restrictions: readonly AccountRestrictionView[]; timeZone: string; clearable?: boolean }) {
  if (restrictions.length === 0) return null;
  return (
    <section className="mb-8" aria-labelledby="account-restrictions-heading">
      <h2 id="account-restrictions-heading" className="mb-3 text-lg font-semibold">
        Bank Account Restrictions
      </h2>
      <ul className="grid gap-3 text-sm" data-testid="account-restrictions">
        {restrictions.map((r) => (
          <li key={r.bankAccountId}>
            {r.accountMasked ?? "Account"}: {ACCOUNT_RESTRICTION_KIND_LABELS[r.kind as keyof typeof ACCOUNT_RESTRICTION_KIND_LABELS] ?? r.kind} ({r.returnCode}) since{" "}
            <time dateTime={r.since}>{formatDateTime(r.since, timeZone, { zone: true })}</time>
            {clearable && r.clearable ? <ClearRestrictionForm restriction={r} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
