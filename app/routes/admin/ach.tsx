import { Download, Landmark } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { AdminShell } from "~/components/admin/admin-shell";
import { PageLoadError } from "~/components/admin/page-load-error";
import { Button, buttonVariants } from "~/components/ui/button";
import { PendingButton } from "~/components/ui/pending-button";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { isRouteErrorResponse } from "react-router";
import { stampedResult } from "~/domain/action-result";
import { formatDateTime, formatDay } from "~/domain/formats";
import { LOAN_PAYMENT_STATUS_LABELS, ACH_RETURN_CODES, type LoanPaymentStatus } from "~/domain/servicing-enums";
import { formatMoney } from "~/domain/money";
import { ACH_LIMITS, achActionSchema, achFormInput } from "~/domain/validation/ach";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { privatePageMeta } from "~/content/site";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { createAchBatch, loadAchPage, refundAchEntry, returnAchEntry, settleAchEntry, type AchBatchSummary, type BatchEntry, type PendingDebit, type RefundDue } from "~/server/loans/index.server";
import { cancelDebit } from "~/server/loans/index.server";
import type { Route } from "./+types/ach";
import { isAppError } from "~/server/platform/http/app-error.server";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("ACH Batch", "Private Loans administration: ACH batches of borrower debits.");

export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async (_args: Route.LoaderArgs) => loadAchPage(),
});

/** Create ACH Batch, Mark Settled, Mark Returned (validated by achActionSchema; the services audit). */
export const action = defineAction({
  guard: staffWith("servicing.manage"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => {
    const read = await readActionForm(request, (message) => stampedResult(false, "ACH Action Failed", message), { unreadableAsEmpty: true });
    if (!read.ok) return respond(read.answer);
    const parsed = achActionSchema.safeParse(achFormInput(read.form));
    if (!parsed.success) return data(stampedResult(false, "ACH Action Failed", parsed.error.issues[0]?.message), { status: 400 });
    const info = requestInfo(request, context);
    const input = parsed.data;
    try {
      switch (input.intent) {
        case "create-batch": {
          const result = await createAchBatch(admin, info);
          const skipped = result.skipped.length ? ` ${result.skipped.length} debit(s) stay pending: see the reasons under Pending Debits.` : "";
          if (!result.ok) return data(stampedResult(false, "No ACH Batch Created", result.message), { status: 409 });
          return data(stampedResult(true, "ACH Batch Created", `${result.entryCount} debit(s), ${formatMoney(result.totalCents)}, effective ${formatDay(result.effectiveDate)}.${skipped}`));
        }
        case "settle": {
          const result = await settleAchEntry(input.paymentId, input.settledOn, admin, info);
          if (result.refundDue) return data(stampedResult(true, "Refund Due", "The loan was already paid off: the debit is not posted and is listed under Refunds Due. The borrower was told."));
          return data(stampedResult(true, "Payment Settled", result.paidInFull ? "The loan is now paid in full." : "The payment is posted to the loan."));
        }
        case "return":
          await returnAchEntry(input.paymentId, input.returnCode, input.returnedOn, admin, info);
          return data(stampedResult(true, "Payment Returned", `Marked returned with code ${input.returnCode} on ${formatDay(input.returnedOn)}.`));
        case "cancel-debit": {
          const result = await cancelDebit(input.paymentId, input.reason, admin, info);
          return data(stampedResult(true, "Debit Cancelled", `The ${formatMoney(result.amountCents)} debit will not be sent. The borrower was told why by e-mail.`));
        }
        case "refund": {
          const result = await refundAchEntry(input.paymentId, input.refundedOn, input.reference, admin, info);
          return data(stampedResult(true, "Refund Recorded", `${formatMoney(result.amountCents)} sent back on ${input.refundedOn}. The borrower was told by e-mail.`));
        }
      }
    } catch (error) {
      if (isAppError(error, "servicing")) return data(stampedResult(false, "ACH Action Failed", error.message), { status: error.status });
      throw error;
    }
  },
});

const cell = "px-3 py-2 align-top";

const fieldClass = "rounded border border-border px-2 py-1";

function EntryActions({ entry, today, effectiveDate }: { entry: BatchEntry; today: string; effectiveDate: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("paymentId") === entry.paymentId;
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
      <Form method="post" className="flex items-end gap-2">
        <input type="hidden" name="intent" value="settle" />
        <input type="hidden" name="paymentId" value={id} />
        <label className="grid gap-1 text-xs">
          <span>Settlement date</span>
          <input type="date" name="settledOn" required min={earliest} max={today} defaultValue={today} className={fieldClass} />
        </label>
        <Button type="submit" size="sm" disabled={busy}>
          Mark Settled<span className="sr-only"> payment from {entry.borrower}</span>
        </Button>
      </Form>
      <Form method="post" className="flex items-end gap-2">
        <input type="hidden" name="intent" value="return" />
        <input type="hidden" name="paymentId" value={id} />
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
        <label className="grid gap-1 text-xs">
          <span>Return date</span>
          <input type="date" name="returnedOn" required min={earliest} max={today} defaultValue={today} className={fieldClass} />
        </label>
        <Button type="submit" size="sm" variant="outline" disabled={busy}>
          Mark Returned<span className="sr-only"> payment from {entry.borrower}</span>
        </Button>
      </Form>
    </div>
  );
}

function CancelDebitForm({ debit }: { debit: PendingDebit }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("paymentId") === debit.paymentId;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="cancel-debit" />
      <input type="hidden" name="paymentId" value={debit.paymentId} />
      <label className="grid gap-1 text-xs">
        <span>Reason (the borrower is told)</span>
        <input type="text" name="reason" required maxLength={ACH_LIMITS.reasonMaxLength} className={fieldClass} />
      </label>
      <Button type="submit" size="sm" variant="destructive" disabled={busy}>
        Cancel Debit<span className="sr-only"> from {debit.borrower}</span>
      </Button>
    </Form>
  );
}

function RefundForm({ refund, today }: { refund: RefundDue; today: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("paymentId") === refund.paymentId;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="refund" />
      <input type="hidden" name="paymentId" value={refund.paymentId} />
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
    </Form>
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
            {batch.entryCount} debit(s), {formatMoney(batch.totalCents)} · effective {formatDay(batch.effectiveDate)} · created <time dateTime={batch.createdAt}>{formatDateTime(batch.createdAt, timeZone, { zone: true })}</time>
            {batch.createdBy ? ` by ${batch.createdBy}` : ""}
          </p>
        </div>
        <a href={`/admin/ach/${batch.id}/file`} download className={buttonVariants({ variant: "outline", size: "sm" })}>
          <Download aria-hidden="true" />
          Download NACHA File<span className="sr-only"> {batch.fileName}</span>
        </a>
      </div>
      <div className="mt-3">
        <ScrollingTable labelledBy={headingId} tableClassName="min-w-[48rem]" testId="ach-batch-entries">
          <TableHead columns={["Loan", "Borrower", "Amount", "Account", "Status"]} cellClassName={cell} />
          <tbody>
            {batch.entries.map((e) => (
              <tr key={e.paymentId} className="border-t border-border">
                <td className={cell}>
                  <a className="underline" href={`/admin/loans/${e.loanId}`}>
                    {e.loanId.slice(0, 8)}
                  </a>
                </td>
                <td className={cell}>{e.borrower}</td>
                <td className={cell}>{formatMoney(e.amountCents)}</td>
                <td className={cell}>{e.accountMasked ?? "—"}</td>
                <td className={cell}>
                  <EntryActions entry={e} today={today} effectiveDate={batch.effectiveDate} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      </div>
    </section>
  );
}

export default function AdminAchPage({ loaderData, actionData }: Route.ComponentProps) {
  const timeZone = useDisplayTimeZone();
  const navigation = useNavigation();
  useActionToast(actionData);
  const { pending, refundsDue, batches, today, nextEffectiveDate } = loaderData;
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create-batch";
  const pendingTotal = pending.reduce((sum, p) => sum + p.amountCents, 0);
  return (
    <AdminShell
      title="ACH Batch"
      description="Borrowers' authorised one-time debits, exported as a NACHA file for the bank, then marked Settled or Returned; debits collected after a payoff are refunded."
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
          <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">No borrower debits are waiting for a batch.</p>
        ) : (
          <ScrollingTable labelledBy="pending-heading" tableClassName="min-w-[40rem]" testId="ach-pending">
            <TableHead columns={["Loan", "Borrower", "Amount", "Account", "Authorised", `Next File (effective ${formatDay(nextEffectiveDate)})`, "Cancel"]} cellClassName={cell} />
            <tbody>
              {pending.map((p) => (
                <tr key={p.paymentId} className="border-t border-border" data-testid="ach-pending-debit">
                  <td className={cell}>
                    <a className="underline" href={`/admin/loans/${p.loanId}`}>
                      {p.loanId.slice(0, 8)}
                    </a>
                  </td>
                  <td className={cell}>{p.borrower}</td>
                  <td className={cell}>{formatMoney(p.amountCents)}</td>
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
        <h2 id="refunds-heading" className="mb-3 text-lg font-semibold">
          Refunds Due ({refundsDue.length}, {formatMoney(refundsDue.reduce((sum, r) => sum + r.amountCents, 0))})
        </h2>
        {refundsDue.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">No debits were collected after their loan was paid off.</p>
        ) : (
          <ScrollingTable labelledBy="refunds-heading" tableClassName="min-w-[40rem]" testId="ach-refunds-due">
            <TableHead columns={["Loan", "Borrower", "Amount", "Received", "Reference", "Refund"]} cellClassName={cell} />
            <tbody>
              {refundsDue.map((r) => (
                <tr key={r.paymentId} className="border-t border-border">
                  <td className={cell}>
                    <a className="underline" href={`/admin/loans/${r.loanId}`}>
                      {r.loanId.slice(0, 8)}
                    </a>
                  </td>
                  <td className={cell}>{r.borrower}</td>
                  <td className={cell}>{formatMoney(r.amountCents)}</td>
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
      <section aria-labelledby="batches-heading">
        <h2 id="batches-heading" className="mb-3 text-lg font-semibold">
          Batches
        </h2>
        {batches.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">No ACH batches yet.</p>
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

const ACH_PAGE_LOAD = { title: "ACH Batch", heading: "Error Loading ACH Batches", fallback: "The ACH batches could not be loaded. Please try again." };

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const detail = isRouteErrorResponse(error) && error.status < 500 ? `${error.status} ${error.statusText}` : ACH_PAGE_LOAD.fallback;
  return <PageLoadError page={ACH_PAGE_LOAD} detail={detail} />;
}
