import { Download, Landmark } from "lucide-react";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { AdminShell } from "~/components/admin/admin-shell";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { Button, buttonVariants } from "~/components/ui/button";
import { PendingButton } from "~/components/ui/pending-button";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import type { StampedResult } from "~/domain/action-result";
import { formatDateTime, formatDay } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { ACCOUNT_VALIDATION_METHOD_LABELS, ACCOUNT_VALIDATION_STATUS_LABELS, ACH_RETURN_CODES, FUNDING_STATUS_LABELS, LOAN_PAYMENT_STATUS_LABELS, type AccountValidationMethod, type AccountValidationStatus, type FundingStatus, type LoanPaymentStatus } from "~/domain/servicing-enums";
import { ACH_LIMITS } from "~/domain/validation/ach";
import type { OpenLoanFlag, ReturnRatesPanel } from "~/domain/views/ach-returns";
import { FlaggedReturnsSection, ImportReturnsForm, ReturnRatesSection, type ReturnFileLine } from "./ach-returns";
import type { AchBatchSummary, AchPageData, BatchCredit, BatchEntry, BatchPrenote, PendingDebit, PendingPrenote, RefundDue } from "~/domain/views/ach";

const cell = "px-3 py-2 align-top";

const fieldClass = "rounded border border-border px-2 py-1";

/** Whether a form of this payment's row is being posted (its buttons wait for the answer). */
function usePostingFor(paymentId: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("paymentId") === paymentId;
}

/** One action on one payment: a plain post of its `intent` and the payment's id, so it works without JavaScript. */
function PaymentForm({ intent, paymentId, className, children }: { intent: string; paymentId: string; className: string; children: ReactNode }) {
  return (
    <Form method="post" className={className}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="paymentId" value={paymentId} />
      {children}
    </Form>
  );
}

/** A row's first cells, the same in every table: the loan (linked, short id), the borrower, the amount. */
function LoanCells({ row }: { row: { loanId: string; borrower: string; amountCents: number } }) {
  return (
    <>
      <td className={cell}>
        <a className="underline" href={`/admin/loans/${row.loanId}`}>
          {row.loanId.slice(0, 8)}
        </a>
      </td>
      <td className={cell}>{row.borrower}</td>
      <td className={cell}>{formatMoney(row.amountCents)}</td>
    </>
  );
}

/** What a section says when it has nothing to list. */
function EmptyNote({ children }: { children: ReactNode }) {
  return <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">{children}</p>;
}

function EntryActions({ entry, today, effectiveDate }: { entry: BatchEntry; today: string; effectiveDate: string }) {
  const busy = usePostingFor(entry.paymentId);
  if (entry.status !== "pending") {
    const on = entry.status === "returned" ? entry.returnedOn : entry.status === "refunded" ? entry.refundedOn : entry.receivedOn;
    return (
      <span>
        {LOAN_PAYMENT_STATUS_LABELS[entry.status as LoanPaymentStatus] ?? entry.status}
        {on ? ` ${formatDay(on)}` : ""}
        {entry.returnCode ? ` (${entry.returnCode})` : ""}
      </span>
    );
  }
  const id = entry.paymentId;
  // Neither settles nor returns before the file's effective date; the server refuses it too.
  const earliest = effectiveDate <= today ? effectiveDate : today;
  return (
    <div className="flex flex-wrap gap-3">
      <PaymentForm intent="settle" paymentId={id} className="flex items-end gap-2">
        <label className="grid gap-1 text-xs">
          <span>Settlement date</span>
          <input type="date" name="settledOn" required min={earliest} max={today} defaultValue={today} className={fieldClass} />
        </label>
        <Button type="submit" size="sm" disabled={busy}>
          Mark Settled<span className="sr-only"> payment from {entry.borrower}</span>
        </Button>
      </PaymentForm>
      <PaymentForm intent="return" paymentId={id} className="flex items-end gap-2">
        <ReturnCodeSelect />
        <label className="grid gap-1 text-xs">
          <span>Return date</span>
          <input type="date" name="returnedOn" required min={earliest} max={today} defaultValue={today} className={fieldClass} />
        </label>
        <Button type="submit" size="sm" variant="outline" disabled={busy}>
          Mark Returned<span className="sr-only"> payment from {entry.borrower}</span>
        </Button>
      </PaymentForm>
    </div>
  );
}

/** The bank's return code, chosen from the list (no code is assumed). */
function ReturnCodeSelect() {
  return (
    <label className="grid gap-1 text-xs">
      <span>Return code</span>
      <select name="returnCode" required defaultValue="" className={fieldClass}>
        {/* A required select's first option is an empty placeholder (HTML): staff pick the bank's code, none is assumed. */}
        <option value="">Choose a return code</option>
        {ACH_RETURN_CODES.map((r) => (
          <option key={r.code} value={r.code}>
            {r.code} {r.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const CLASS_AND_DIRECTION = (p: { secCode: string; direction: string }) => `${p.secCode} ${p.direction === "debit" ? "debit" : "credit"} prenote`;

/** A loan's link (short id), or a dash when the account's application has no loan. */
function LoanLink({ loanId }: { loanId: string | null }) {
  return loanId ? (
    <a className="underline" href={`/admin/loans/${loanId}`}>
      {loanId.slice(0, 8)}
    </a>
  ) : (
    <>—</>
  );
}

/**
 * A prenote's state, and Mark Returned while the bank can still send it back (sent, or counted
 * validated after the wait: a late return still says the account is wrong).
 */
function PrenoteActions({ prenote, today, effectiveDate }: { prenote: BatchPrenote; today: string; effectiveDate: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("validationId") === prenote.validationId;
  const label = ACCOUNT_VALIDATION_STATUS_LABELS[prenote.status as AccountValidationStatus] ?? prenote.status;
  const state =
    prenote.status === "sent" && prenote.readyOn
      ? `${label}: validated on ${formatDay(prenote.readyOn)} unless returned`
      : prenote.status === "failed"
        ? `Returned${prenote.returnedOn ? ` ${formatDay(prenote.returnedOn)}` : ""}${prenote.returnCode ? ` (${prenote.returnCode})` : ""}`
        : prenote.status === "validated"
          ? `Validated${prenote.method !== "prenote" ? ` (${ACCOUNT_VALIDATION_METHOD_LABELS[prenote.method as AccountValidationMethod] ?? prenote.method})` : ""}${prenote.validatedAt ? ` ${formatDay(prenote.validatedAt.slice(0, 10))}` : ""}`
          : label;
  const returnable = prenote.status === "sent" || (prenote.status === "validated" && prenote.method === "prenote");
  if (!returnable) return <span>{state}</span>;
  const earliest = effectiveDate <= today ? effectiveDate : today;
  return (
    <div className="grid gap-2">
      <span>{state}</span>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="return-prenote" />
        <input type="hidden" name="validationId" value={prenote.validationId} />
        <ReturnCodeSelect />
        <label className="grid gap-1 text-xs">
          <span>Return date</span>
          <input type="date" name="returnedOn" required min={earliest} max={today} defaultValue={today} className={fieldClass} />
        </label>
        <Button type="submit" size="sm" variant="outline" disabled={busy}>
          Mark Returned<span className="sr-only"> prenote for {prenote.accountMasked ?? "the account"} of {prenote.borrower}</span>
        </Button>
      </Form>
    </div>
  );
}

function CreditStatus({ credit }: { credit: BatchCredit }) {
  const label = FUNDING_STATUS_LABELS[credit.status as FundingStatus] ?? credit.status;
  const on = credit.status === "returned" ? credit.returnedOn : credit.status === "settled" ? credit.settledOn : null;
  return (
    <span>
      {label}
      {on ? ` ${formatDay(on)}` : ""}
      {credit.returnCode ? ` (${credit.returnCode})` : ""}
    </span>
  );
}

function CancelDebitForm({ debit }: { debit: PendingDebit }) {
  const busy = usePostingFor(debit.paymentId);
  return (
    <PaymentForm intent="cancel-debit" paymentId={debit.paymentId} className="flex flex-wrap items-end gap-2">
      <label className="grid gap-1 text-xs">
        <span>Reason (the borrower is told)</span>
        <input type="text" name="reason" required maxLength={ACH_LIMITS.reasonMaxLength} className={fieldClass} />
      </label>
      <Button type="submit" size="sm" variant="destructive" disabled={busy}>
        Cancel Debit<span className="sr-only"> from {debit.borrower}</span>
      </Button>
    </PaymentForm>
  );
}

function RefundForm({ refund, today }: { refund: RefundDue; today: string }) {
  const busy = usePostingFor(refund.paymentId);
  return (
    <PaymentForm intent="refund" paymentId={refund.paymentId} className="flex flex-wrap items-end gap-2">
      <label className="grid gap-1 text-xs">
        <span>Refund date</span>
        <input type="date" name="refundedOn" required min={refund.receivedOn} max={today} defaultValue={today} className={fieldClass} />
      </label>
      <label className="grid gap-1 text-xs">
        <span>Refund reference</span>
        <input type="text" name="reference" required maxLength={ACH_LIMITS.referenceMaxLength} className={fieldClass} />
      </label>
      <Button type="submit" size="sm" disabled={busy}>
        Mark Refunded<span className="sr-only"> {formatMoney(refund.amountCents)} to {refund.borrower}</span>
      </Button>
    </PaymentForm>
  );
}

function PendingPrenoteRow({ prenote: p, timeZone }: { prenote: PendingPrenote; timeZone: string }) {
  return (
    <tr className="border-t border-border" data-testid="ach-pending-prenote">
      <td className={cell}>
        <LoanLink loanId={p.loanId} />
      </td>
      <td className={cell}>{p.borrower}</td>
      <td className={cell}>Prenote ({CLASS_AND_DIRECTION(p)})</td>
      <td className={cell}>{p.accountMasked ?? "No account on file"}</td>
      <td className={cell}>
        <time dateTime={p.queuedAt}>{formatDateTime(p.queuedAt, timeZone, { zone: true })}</time>
      </td>
      <td className={cell}>{p.skipReason ? <span className="font-medium text-red-800">Skipped: {p.skipReason}</span> : "Included"}</td>
    </tr>
  );
}

function BatchCard({ batch, today, timeZone }: { batch: AchBatchSummary; today: string; timeZone: string }) {
  const headingId = `batch-${batch.id}`;
  return (
    <section className="rounded-xl border border-border p-4" data-testid="ach-batch">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id={headingId} className="font-semibold">
            {batch.fileName}.ach
          </h3>
          <p className="text-sm text-slate-700">
            {batch.entries.length} debit(s), {formatMoney(batch.totalCents)}
            {batch.credits.length ? ` · ${batch.credits.length} credit(s), ${formatMoney(batch.creditTotalCents)}` : ""}
            {batch.prenotes.length ? ` · ${batch.prenotes.length} prenote(s)` : ""} · effective {formatDay(batch.effectiveDate)} · created <time dateTime={batch.createdAt}>{formatDateTime(batch.createdAt, timeZone, { zone: true })}</time>
            {batch.createdBy ? ` by ${batch.createdBy}` : ""}
          </p>
        </div>
        <a href={`/admin/ach/${batch.id}/file`} download className={buttonVariants({ variant: "outline", size: "sm" })}>
          <Download aria-hidden="true" />
          Download NACHA File<span className="sr-only"> {batch.fileName}</span>
        </a>
      </div>
      {batch.entries.length > 0 ? (
        <div className="mt-3">
          <h4 id={`${headingId}-debits`} className="mb-2 text-sm font-semibold">
            Debits<span className="sr-only"> in {batch.fileName}</span>
          </h4>
          <ScrollingTable labelledBy={`${headingId}-debits`} tableClassName="min-w-[48rem]" testId="ach-batch-entries">
            <TableHead columns={["Loan", "Borrower", "Amount", "Account", "Status"]} cellClassName={cell} />
            <tbody>
              {batch.entries.map((e) => (
                <tr key={e.paymentId} className="border-t border-border">
                  <LoanCells row={e} />
                  <td className={cell}>{e.accountMasked ?? "—"}</td>
                  <td className={cell}>
                    <EntryActions entry={e} today={today} effectiveDate={batch.effectiveDate} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </div>
      ) : null}
      {batch.credits.length > 0 ? (
        <div className="mt-3">
          <h4 id={`${headingId}-credits`} className="mb-2 text-sm font-semibold">
            Credits (loan proceeds)<span className="sr-only"> in {batch.fileName}</span>
          </h4>
          <ScrollingTable labelledBy={`${headingId}-credits`} tableClassName="min-w-[48rem]" testId="ach-batch-credits">
            <TableHead columns={["Loan", "Borrower", "Amount", "Account", "Class", "Status"]} cellClassName={cell} />
            <tbody>
              {batch.credits.map((c) => (
                <tr key={c.fundingId} className="border-t border-border">
                  <LoanCells row={c} />
                  <td className={cell}>{c.accountMasked ?? "—"}</td>
                  <td className={cell}>{c.secCode}</td>
                  <td className={cell}>
                    <CreditStatus credit={c} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </div>
      ) : null}
      {batch.prenotes.length > 0 ? (
        <div className="mt-3">
          <h4 id={`${headingId}-prenotes`} className="mb-2 text-sm font-semibold">
            Prenotes<span className="sr-only"> in {batch.fileName}</span>
          </h4>
          <ScrollingTable labelledBy={`${headingId}-prenotes`} tableClassName="min-w-[48rem]" testId="ach-batch-prenotes">
            <TableHead columns={["Loan", "Borrower", "Entry", "Account", "Status"]} cellClassName={cell} />
            <tbody>
              {batch.prenotes.map((p) => (
                <tr key={p.validationId} className="border-t border-border" data-testid="ach-batch-prenote">
                  <td className={cell}>
                    <LoanLink loanId={p.loanId} />
                  </td>
                  <td className={cell}>{p.borrower}</td>
                  <td className={cell}>Prenote ({CLASS_AND_DIRECTION(p)})</td>
                  <td className={cell}>{p.accountMasked ?? "—"}</td>
                  <td className={cell}>
                    <PrenoteActions prenote={p} today={today} effectiveDate={batch.effectiveDate} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </div>
      ) : null}
    </section>
  );
}

/**
 * /admin/ach: the debits waiting for the next NACHA file (each can be cancelled), the debits to refund,
 * and every batch with its entries to mark Settled or Returned. Every form posts to the page's action.
 */
export function AchPage({
  data,
  actionData,
}: {
  data: AchPageData & { returns?: { rates: ReturnRatesPanel; flags: OpenLoanFlag[] } };
  actionData: (StampedResult & { lines?: ReturnFileLine[] }) | undefined;
}) {
  const timeZone = useDisplayTimeZone();
  const navigation = useNavigation();
  useActionToast(actionData);
  const { pending, pendingPrenotes, refundsDue, batches, today, nextEffectiveDate } = data;
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create-batch";
  const pendingTotal = pending.reduce((sum, p) => sum + p.amountCents, 0);
  return (
    <AdminShell
      title="ACH Batch"
      description="Borrowers' authorised one-time debits, the prenotes that validate new bank accounts and the loans' proceeds, exported as a NACHA file for the bank, then marked Settled or Returned; debits collected after a payoff are refunded."
      actions={
        <Form method="post">
          <input type="hidden" name="intent" value="create-batch" />
          <PendingButton type="submit" pending={creating} icon={<Landmark aria-hidden="true" />}>
            Create ACH Batch
          </PendingButton>
        </Form>
      }
    >
      {/* Each table's scrolling region is the landmark named by its heading; the section is not a second one of the same name. */}
      <section className="mb-8">
        <h2 id="pending-heading" className="mb-3 text-lg font-semibold">
          Pending Debits ({pending.length}, {formatMoney(pendingTotal)})
        </h2>
        {pending.length === 0 ? (
          <EmptyNote>No borrower debits are waiting for a batch.</EmptyNote>
        ) : (
          <ScrollingTable labelledBy="pending-heading" tableClassName="min-w-[40rem]" testId="ach-pending">
            <TableHead columns={["Loan", "Borrower", "Amount", "Account", "Authorised", `Next File (effective ${formatDay(nextEffectiveDate)})`, "Cancel"]} cellClassName={cell} />
            <tbody>
              {pending.map((p) => (
                <tr key={p.paymentId} className="border-t border-border" data-testid="ach-pending-debit">
                  <LoanCells row={p} />
                  <td className={cell}>{p.accountMasked ?? "No account on file"}</td>
                  <td className={cell}>{p.authorizedAt ? <time dateTime={p.authorizedAt}>{formatDateTime(p.authorizedAt, timeZone, { zone: true })}</time> : "—"}</td>
                  <td className={cell} data-testid="ach-skip-reason">
                    {p.skipReason ? <span className="font-medium text-red-800">Skipped: {p.skipReason}</span> : "Included"}
                  </td>
                  <td className={cell}>
                    <CancelDebitForm debit={p} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        )}
      </section>
      <section className="mb-8">
        <h2 id="prenotes-heading" className="mb-3 text-lg font-semibold">
          Prenotes for the Next File ({pendingPrenotes.length})
        </h2>
        {pendingPrenotes.length === 0 ? (
          <EmptyNote>No bank account is waiting for a prenote.</EmptyNote>
        ) : (
          <ScrollingTable labelledBy="prenotes-heading" tableClassName="min-w-[40rem]" testId="ach-pending-prenotes">
            <TableHead columns={["Loan", "Borrower", "Entry", "Account", "Queued", `Next File (effective ${formatDay(nextEffectiveDate)})`]} cellClassName={cell} />
            <tbody>
              {pendingPrenotes.map((p) => (
                <PendingPrenoteRow key={p.validationId} prenote={p} timeZone={timeZone} />
              ))}
            </tbody>
          </ScrollingTable>
        )}
      </section>
      <section className="mb-8">
        <h2 id="refunds-heading" className="mb-3 text-lg font-semibold">
          Refunds Due ({refundsDue.length}, {formatMoney(refundsDue.reduce((sum, r) => sum + r.amountCents, 0))})
        </h2>
        {refundsDue.length === 0 ? (
          <EmptyNote>No debits were collected after their loan was paid off.</EmptyNote>
        ) : (
          <ScrollingTable labelledBy="refunds-heading" tableClassName="min-w-[40rem]" testId="ach-refunds-due">
            <TableHead columns={["Loan", "Borrower", "Amount", "Received", "Reference", "Refund"]} cellClassName={cell} />
            <tbody>
              {refundsDue.map((r) => (
                <tr key={r.paymentId} className="border-t border-border">
                  <LoanCells row={r} />
                  <td className={cell}>{formatDay(r.receivedOn)}</td>
                  <td className={cell}>{r.reference}</td>
                  <td className={cell}>
                    <RefundForm refund={r} today={today} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        )}
      </section>
      <ImportReturnsForm lines={actionData?.lines} />
      {data.returns ? <ReturnRatesSection rates={data.returns.rates} /> : null}
      {data.returns ? <FlaggedReturnsSection flags={data.returns.flags} timeZone={timeZone} /> : null}
      <section aria-labelledby="batches-heading">
        <h2 id="batches-heading" className="mb-3 text-lg font-semibold">
          Batches
        </h2>
        {batches.length === 0 ? (
          <EmptyNote>No ACH batches yet.</EmptyNote>
        ) : (
          <div className="grid gap-4">
            {batches.map((b) => (
              <BatchCard key={b.id} batch={b} today={today} timeZone={timeZone} />
            ))}
          </div>
        )}
      </section>
    </AdminShell>
  );
}
