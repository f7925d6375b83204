import { Banknote, Undo2 } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { newIdempotencyKey } from "~/components/idempotency-key";
import { AdminShell } from "~/components/admin/admin-shell";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Detail } from "~/components/ui/detail-list";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { ReasonAndConfirm, useReason } from "~/components/admin/reason-dialog-form";
import { controlClass, Field } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { PendingButton } from "~/components/ui/pending-button";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { formatDate } from "~/domain/formats";
import { SCHEDULE_NOTE } from "~/domain/loan-servicing";
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from "~/domain/servicing-enums";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { LOAN_PAYMENT_LIMITS, LOAN_PAYMENT_MESSAGES, recordPaymentSchema, reversePaymentSchema, type LoanPaymentActionData } from "~/domain/validation/loan-payments";
import { formatMoney } from "~/domain/money";
import type { StaffLedgerPayment, StaffLoanPage } from "~/domain/views/staff-loans";
import { LoanStatusBadge } from "./loan-status-badge";
import { DelinquencyStanding } from "./delinquency-standing";
import { todayUtc } from "~/domain/dates";
import { useEachAnswer } from "~/components/use-each-answer";
import { LabelledOptions } from "~/components/ui/labelled-options";
import { InstallmentCells } from "~/components/loans/installment-cells";
import { FundingChecklistPanel } from "./funding-checklist-panel";
import { AccountValidationPanel } from "./account-validation-panel";
import { ChargeOffAndProtectionPanels } from "./charge-off-panels";
import { HardshipPanel } from "./hardship-panel";
import { returnCodeText } from "~/domain/views/account-validation";
import { AccountRestrictionsList, FlaggedReturnsSection } from "~/components/admin/ach/ach-returns";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { CollectionsPanel } from "./collections-panel";
import type { CollectionsPanelData } from "~/domain/views/collections";

const day = (value: string | null) => (value ? <time dateTime={value}>{formatDate(`${value}T12:00:00Z`, "UTC")}</time> : "—");

/**
 * /admin/loans/:id: the loan's terms and where it stands today, the Payment Schedule (paid
 * installments marked), the ledger in posting order from the disbursement (fees assessed and every
 * payment with its allocation and the principal balance after it; pending borrower debits and
 * reversed ones with their status), Record Payment and Reverse Payment; the Funding Checklist and the
 * proceeds' credit (funding-checklist-panel.tsx).
 */
export function LoanPage({ data }: { data: StaffLoanPage & { collections?: CollectionsPanelData | null } }) {
  const { loan, summary } = data;
  const timeZone = useDisplayTimeZone();
  // A paid-off or settled loan takes no payment (a charged-off one does: recoveries).
  const paidInFull = loan.status === "paid_in_full" || loan.status === "settled";
  // A loan whose proceeds were not sent (or that was cancelled unfunded) takes no payment.
  const unfunded = data.funding.loanStatus === "awaiting_funding" || data.funding.loanStatus === "cancelled";
  return (
    <AdminShell
      title={`Loan ${loan.reference}`}
      description={`${loan.borrowerName} · ${loan.loanType}`}
      actions={paidInFull || unfunded ? null : <RecordPayment loanId={loan.id} today={data.today} pendingDebit={data.pendingDebit} />}
    >
      <p className="mb-4 text-sm">
        <Link to="/admin/loans" className="font-medium text-link underline-offset-4 hover:underline">
          Back to Loans
        </Link>
        {" · "}
        <Link to={`/admin/applications/${loan.applicationId}`} className="font-medium text-link underline-offset-4 hover:underline">
          View Application
        </Link>
      </p>
      <div className="flex flex-col gap-6">
        <Card className="p-4 sm:p-5" role="region" aria-labelledby="loan-standing-heading" data-testid="loan-standing">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id="loan-standing-heading" className="text-lg font-semibold text-primary">
              Standing
            </h2>
            <LoanStatusBadge status={loan.status} label={loan.statusLabel} />
            <DelinquencyStanding status={loan.status} daysPastDue={summary.daysPastDue} />
          </div>
          <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
            <Fact label="Principal Balance" testId="principal-balance">
              {formatMoney(summary.principalCents)}
            </Fact>
            <Fact label="Interest Accrued">{formatMoney(summary.interestAccruedCents)}</Fact>
            <Fact label="Fees Due">{formatMoney(summary.feesDueCents)}</Fact>
            <Fact label="Payoff Today" testId="payoff-today">
              {formatMoney(summary.payoffTodayCents)}
            </Fact>
            <Fact label="Next Payment">
              {summary.nextInstallment ? (
                <>
                  {formatMoney(summary.nextInstallment.amountDueCents)} due {day(summary.nextInstallment.dueDate)}
                  {summary.nextInstallment.feesCents > 0 ? ` (${formatMoney(summary.nextInstallment.installmentCents)} installment + ${formatMoney(summary.nextInstallment.feesCents)} fees)` : null}
                </>
              ) : (
                "—"
              )}
            </Fact>
            <Fact label="Days Past Due">{summary.daysPastDue}</Fact>
            {loan.paidOffAt ? <Fact label="Paid in Full On">{day(loan.paidOffAt.slice(0, 10))}</Fact> : null}
          </dl>
        </Card>

        <ChargeOffAndProtectionPanels data={data} />
        <FundingChecklistPanel loanId={loan.id} funding={data.funding} />
        <AccountValidationPanel panel={data.accountValidation} />
        <HardshipPanel panel={data.hardship} />
        {data.flags.length > 0 ? <FlaggedReturnsSection flags={data.flags} timeZone={timeZone} heading="Open Flags" /> : null}
        <AccountRestrictionsList restrictions={data.restrictions} timeZone={timeZone} clearable />
        {data.collections ? <CollectionsPanel panel={data.collections} timeZone={timeZone} /> : null}

        <Card className="p-4 sm:p-5" role="region" aria-labelledby="loan-terms-heading">
          <h2 id="loan-terms-heading" className="text-lg font-semibold text-primary">
            Terms
          </h2>
          <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
            <Fact label="Borrower">
              {loan.borrowerName} <span className="block font-normal break-all">{loan.borrowerEmail}</span>
            </Fact>
            <Fact label="Amount">{formatMoney(loan.amountCents)}</Fact>
            <Fact label="Note Rate">{loan.noteRatePercent}%</Fact>
            <Fact label="Term">{loan.termMonths} months</Fact>
            <Fact label="Monthly Payment">{formatMoney(loan.paymentCents)}</Fact>
            <Fact label="Start Date">{day(loan.startDate)}</Fact>
            <Fact label="Maturity Date">{day(loan.maturityDate)}</Fact>
            <Fact label="Payment Account" testId="payment-account">
              {data.paymentAccount ? (
                <>
                  {data.paymentAccount.label}
                  <span className="block font-normal break-words">
                    {data.paymentAccount.holder} · {data.paymentAccount.bankName}
                  </span>
                </>
              ) : (
                "None on file"
              )}
            </Fact>
          </dl>
        </Card>

        {data.refundsDue.length > 0 ? <RefundsDue refunds={data.refundsDue} /> : null}
        <Ledger data={data} />

        <Card className="p-4 sm:p-5">
          <h2 id="payment-schedule-heading" className="text-lg font-semibold text-primary">
            Payment Schedule
          </h2>
          <p className="mt-1 mb-3 text-sm text-slate-700" data-testid="schedule-note">
            {SCHEDULE_NOTE}
          </p>
          <ScrollingTable labelledBy="payment-schedule-heading" tableClassName="min-w-[40rem]" testId="payment-schedule">
            <TableHead
              columns={["#", "Due Date", { label: "Payment", className: "text-right" }, { label: "Principal", className: "text-right" }, { label: "Interest", className: "text-right" }, { label: "Balance After", className: "text-right" }, "Paid"]}
              className="bg-muted"
              cellClassName="px-3 py-2 font-semibold"
            />
            <tbody>
              {data.installments.map((row) => (
                <tr key={row.number} className="border-t border-border" data-testid="installment" data-paid={row.paid ? "true" : "false"}>
                  <InstallmentCells row={row} day={day} cell="px-3 py-1.5" numberCell="px-3 py-1.5 tabular-nums" moneyCell="px-3 py-1.5 text-right tabular-nums" />
                  <td className="px-3 py-1.5">{row.paid ? "Paid" : "—"}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </Card>
      </div>
    </AdminShell>
  );
}

/** Debits the bank collected after the loan was paid off: not posted, owed back (Mark Refunded is on the ACH page). */
function RefundsDue({ refunds }: { refunds: StaffLoanPage["refundsDue"] }) {
  return (
    <Card className="border-amber-600 p-4 sm:p-5" role="region" aria-labelledby="refund-due-heading" data-testid="refund-due">
      <h2 id="refund-due-heading" className="text-lg font-semibold text-primary">
        Refund Due
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The bank collected these debits after the loan was paid off. They are not applied to the loan; send them back and record it under Refunds Due on the{" "}
        <Link to="/admin/ach" className="font-medium text-link underline-offset-4 hover:underline">
          ACH Batch
        </Link>{" "}
        page.
      </p>
      <ul className="mt-3 flex flex-col gap-1 text-sm">
        {refunds.map((r) => (
          <li key={r.paymentId}>
            {formatMoney(r.amountCents)} received {day(r.receivedOn)} (reference {r.reference})
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Ledger({ data }: { data: StaffLoanPage }) {
  const [reversing, setReversing] = useState<StaffLedgerPayment | null>(null);
  return (
    <Card className="p-4 sm:p-5">
      <h2 id="ledger-heading" tabIndex={-1} className="text-lg font-semibold text-primary focus-visible:outline-3">
        Ledger
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-700">
        In posting order, oldest first, from the disbursement: each posted payment pays fees, then the interest accrued to its date, then principal, and the Principal Balance after it
        is what is left. Pending borrower debits reach the ledger once settled; reversed and returned payments leave the balance as it was.
      </p>
      <ScrollingTable labelledBy="ledger-heading" tableClassName="min-w-[64rem]" testId="ledger">
        <TableHead
          columns={[
            "Date",
            "Entry",
            "Reference",
            { label: "Amount", className: "text-right" },
            "Status",
            { label: "Fees", className: "text-right" },
            { label: "Interest", className: "text-right" },
            { label: "Principal", className: "text-right" },
            { label: "Principal Balance", className: "text-right" },
            "Actions",
          ]}
          className="bg-muted"
          cellClassName="px-3 py-2 font-semibold"
        />
        <tbody>
          {data.ledger.map((line) => {
            const balance = (
              <td className="px-3 py-1.5 text-right tabular-nums" data-testid="principal-balance-after">
                {formatMoney(line.principalAfterCents)}
              </td>
            );
            if (line.kind === "disbursement") {
              return (
                <EntryRow key="disbursement" kind="disbursement" date={day(line.date)} what="Disbursement" reference={data.loan.reference} amountCents={line.amountCents} status="Funded" balance={balance} />
              );
            }
            if (line.kind === "fee") {
              const what = `Late fee${line.fee.installmentNumber !== null ? `, installment ${line.fee.installmentNumber}` : ""}`;
              return <EntryRow key={`fee-${line.fee.id}`} kind="fee" date={day(line.date)} what={what} reference="—" amountCents={line.fee.amountCents} status="Assessed" balance={balance} />;
            }
            if (line.kind === "charge_off") {
              const a = line.amounts;
              const what = `Charged off: principal ${formatMoney(a.principalCents)}, interest ${formatMoney(a.interestCents)}, fees ${formatMoney(a.feesCents)}`;
              return <EntryRow key="charge-off" kind="charge_off" date={day(line.date)} what={what} reference="—" amountCents={a.totalCents} status="Charged Off" balance={balance} />;
            }
            if (line.kind === "settlement") {
              return <EntryRow key="settlement" kind="settlement" date={day(line.date)} what="Settlement: the rest forgiven" reference="—" amountCents={line.forgivenCents} status="Settled" balance={balance} />;
            }
            const p = line.payment;
            return (
              <tr key={p.id} className="border-t border-border align-top" data-testid="ledger-payment" data-kind="payment" data-payment-id={p.id} data-status={p.status} data-reference={p.reference}>
                <td className="px-3 py-1.5">{p.receivedOn ? day(p.receivedOn) : <span className="text-muted-foreground">Requested {day(p.createdAt.slice(0, 10))}</span>}</td>
                <td className="px-3 py-1.5">
                  {p.methodLabel}
                  {p.source === "borrower" ? <span className="block text-xs text-muted-foreground">Borrower</span> : null}
                </td>
                <td className="px-3 py-1.5 break-all">{p.reference}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(p.amountCents)}</td>
                <td className="px-3 py-1.5">
                  <span data-testid="payment-status">{p.statusLabel}</span>
                  {p.allocation?.recovery ? <span className="block text-xs font-semibold" data-testid="payment-recovery">Recovery</span> : null}
                  {p.reversalReason ? <span className="block text-xs break-words whitespace-pre-line text-muted-foreground">{p.reversalReason}</span> : null}
                  {p.returnCode ? <span className="block text-xs text-muted-foreground">{returnCodeText(p.returnCode)}</span> : null}
                  {p.cancelReason ? <span className="block text-xs break-words whitespace-pre-line text-muted-foreground">{p.cancelReason}</span> : null}
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums">{p.allocation ? formatMoney(p.allocation.feesCents) : "—"}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{p.allocation ? formatMoney(p.allocation.interestCents) : "—"}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {p.allocation ? formatMoney(p.allocation.principalCents) : "—"}
                  {p.allocation && p.allocation.excessCents > 0 ? <span className="block text-xs text-muted-foreground">Excess {formatMoney(p.allocation.excessCents)}</span> : null}
                </td>
                {balance}
                <td className="px-3 py-1.5">
                  {p.status === "posted" ? (
                    <Button variant="outline" size="sm" onClick={() => setReversing(p)} data-action="reverse-payment" aria-label={`Reverse Payment ${p.reference}`}>
                      <Undo2 aria-hidden="true" />
                      Reverse Payment
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </ScrollingTable>
      <h3 id="fees-heading" className="mt-5 text-base font-semibold text-primary">
        Fees Assessed
      </h3>
      {data.fees.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">No fees assessed.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-1 text-sm" aria-labelledby="fees-heading" data-testid="fees">
          {data.fees.map((f) => (
            <li key={f.id} data-testid="fee">
              Late fee for installment {f.installmentNumber}: {formatMoney(f.amountCents)}, assessed {day(f.assessedOn)}
            </li>
          ))}
        </ul>
      )}
      <ReversePayment loanId={data.loan.id} payment={reversing} onClose={() => setReversing(null)} />
    </Card>
  );
}

function RecordPayment({ loanId, today, pendingDebit }: { loanId: string; today: string; pendingDebit: StaffLoanPage["pendingDebit"] }) {
  const [open, setOpen] = useState(false);
  const empty = { amount: "", receivedOn: today, method: "ach" as PaymentMethod, reference: "", confirmPendingDebit: undefined as "yes" | undefined };
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors>({});
  const opener = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const fetcher = useFetcher<LoanPaymentActionData>({ key: `record-payment-${loanId}` });
  const pending = fetcher.state !== "idle";
  // One key per form filled in: the server posts a key once and answers a repeat as it answered the first.
  const [idempotencyKey, setIdempotencyKey] = useState(() => newIdempotencyKey());
  // Set as the submit starts, before React re-renders with the fetcher's state: a double click's
  // second click lands in between and would otherwise post (and abort the first's answer) again.
  const submitting = useRef(false);
  useEffect(() => {
    if (fetcher.state === "idle") submitting.current = false;
  }, [fetcher.state]);
  useActionToast(fetcher.data);
  useEachAnswer(fetcher.data, (data) => {
    if (data.ok) {
      setOpen(false);
      setValues(empty);
      setIdempotencyKey(newIdempotencyKey());
    } else if (data.fieldErrors && Object.keys(data.fieldErrors).length > 0) {
      setErrors(data.fieldErrors);
      focusFirstError();
    }
  });

  function focusFirstError() {
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
  }

  function set<K extends keyof typeof values>(key: K, value: (typeof values)[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || submitting.current) return;
    // The browser's own day in UTC, as the server checks it.
    const parsed = recordPaymentSchema(todayUtc()).safeParse({ intent: "record-payment", ...values });
    const unconfirmed = pendingDebit && values.confirmPendingDebit !== "yes" ? { confirmPendingDebit: [LOAN_PAYMENT_MESSAGES.confirmPendingDebit] } : {};
    if (!parsed.success || unconfirmed.confirmPendingDebit) {
      setErrors({ ...(parsed.success ? {} : issuesToFieldErrors(parsed.error)), ...unconfirmed });
      focusFirstError();
      return;
    }
    const { confirmPendingDebit, ...fields } = values;
    submitting.current = true;
    void fetcher.submit(
      { intent: "record-payment", idempotencyKey, ...fields, ...(confirmPendingDebit ? { confirmPendingDebit } : {}) },
      { method: "post", action: `/admin/loans/${loanId}` },
    );
  }

  return (
    <>
      <Button ref={opener} onClick={() => setOpen(true)} data-action="record-payment">
        <Banknote aria-hidden="true" />
        Record Payment
      </Button>
      <ModalDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setErrors({});
        }}
        onCloseFocus={() => opener.current?.focus()}
        title="Record Payment"
        description="A payment received by ACH, wire or check, posted at once: it pays fees, then interest accrued to the received date, then principal."
        testId="record-payment-dialog"
      >
        <form ref={formRef} method="post" action={`/admin/loans/${loanId}`} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-1">
          <input type="hidden" name="intent" value="record-payment" />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <Field id={`${id}-amount`} label="Amount" required hint="In dollars, e.g. 1,250.00" errors={errors.amount} liveErrors>
            {(a11y) => <Input {...a11y} name="amount" inputMode="decimal" autoComplete="off" value={values.amount} onChange={(e) => set("amount", e.target.value)} disabled={pending} />}
          </Field>
          <Field id={`${id}-received`} label="Received Date" required errors={errors.receivedOn} liveErrors>
            {(a11y) => <Input {...a11y} name="receivedOn" type="date" max={today} value={values.receivedOn} onChange={(e) => set("receivedOn", e.target.value)} disabled={pending} />}
          </Field>
          <Field id={`${id}-method`} label="Method" required errors={errors.method} liveErrors>
            {(a11y) => (
              <select {...a11y} name="method" className={controlClass} value={values.method} onChange={(e) => set("method", e.target.value as PaymentMethod)} disabled={pending}>
                <LabelledOptions values={PAYMENT_METHODS} labels={PAYMENT_METHOD_LABELS} />
              </select>
            )}
          </Field>
          <Field id={`${id}-reference`} label="Reference" required hint="Check number, wire or ACH reference; each is posted once." errors={errors.reference} liveErrors>
            {(a11y) => (
              <Input {...a11y} name="reference" autoComplete="off" maxLength={LOAN_PAYMENT_LIMITS.referenceMaxLength} value={values.reference} onChange={(e) => set("reference", e.target.value)} disabled={pending} />
            )}
          </Field>
          {pendingDebit ? (
            <div className="mt-2 rounded-md border border-amber-600 bg-amber-50 p-3 text-sm text-amber-950" data-testid="pending-debit-warning">
              <p>{pendingDebit.warning}</p>
              <label className="mt-2 flex items-start gap-2 font-medium">
                <input
                  type="checkbox"
                  name="confirmPendingDebit"
                  value="yes"
                  className="mt-1"
                  checked={values.confirmPendingDebit === "yes"}
                  onChange={(e) => set("confirmPendingDebit", e.target.checked ? "yes" : undefined)}
                  disabled={pending}
                  aria-invalid={errors.confirmPendingDebit ? true : undefined}
                  aria-describedby={errors.confirmPendingDebit ? `${id}-confirm-error` : undefined}
                />
                Record it anyway: I checked the pending debit
              </label>
              {errors.confirmPendingDebit ? (
                <p id={`${id}-confirm-error`} className="mt-1 text-red-800" role="alert">
                  {errors.confirmPendingDebit[0]}
                </p>
              ) : null}
            </div>
          ) : null}
          <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogCloseButton>Cancel</DialogCloseButton>
            <PendingButton type="submit" pending={pending} icon={<Banknote aria-hidden="true" />} aria-disabled={pending || undefined}>
              {pending ? "Recording…" : "Post Payment"}
            </PendingButton>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}

function ReversePayment({ loanId, payment, onClose }: { loanId: string; payment: StaffLedgerPayment | null; onClose: () => void }) {
  const reason = useReason();
  const fetcher = useFetcher<LoanPaymentActionData>({ key: `reverse-payment-${loanId}` });
  const pending = fetcher.state !== "idle";
  useActionToast(fetcher.data);
  useEachAnswer(fetcher.data, (data) => {
    if (!data.ok && data.fieldErrors?.reason) {
      reason.refuse(data.fieldErrors.reason);
      return;
    }
    reason.clear();
    onClose();
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || !payment) return;
    const parsed = reversePaymentSchema.safeParse({ intent: "reverse-payment", paymentId: payment.id, reason: reason.value });
    if (!parsed.success) {
      reason.refuse(issuesToFieldErrors(parsed.error).reason);
      return;
    }
    void fetcher.submit({ intent: "reverse-payment", paymentId: payment.id, reason: parsed.data.reason }, { method: "post", action: `/admin/loans/${loanId}` });
  }

  return (
    <ModalDialog
      open={payment !== null}
      onOpenChange={reason.dismissWith(onClose)}
      onCloseFocus={() => document.getElementById("ledger-heading")?.focus()}
      title="Reverse Payment"
      description={payment ? `Reverse ${formatMoney(payment.amountCents)} (${payment.reference}): it leaves the ledger and every later payment is re-allocated.` : ""}
      testId="reverse-payment-dialog"
    >
      <form method="post" action={`/admin/loans/${loanId}`} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
        <ReasonAndConfirm
          {...reason.field}
          hint="For example Returned / NSF."
          maxLength={LOAN_PAYMENT_LIMITS.reasonMaxLength}
          pending={pending}
          confirmLabel="Confirm Reverse Payment"
          pendingLabel="Reversing…"
        >
          <input type="hidden" name="intent" value="reverse-payment" />
          <input type="hidden" name="paymentId" value={payment?.id ?? ""} />
        </ReasonAndConfirm>
      </form>
    </ModalDialog>
  );
}

function Fact({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <Detail label={label} valueClassName="mt-0.5 font-semibold">
      <span data-testid={testId}>{children}</span>
    </Detail>
  );
}

/** A ledger row that is not a payment (the disbursement, a fee): no split into fees, interest and principal, no actions. */
function EntryRow(props: { kind: string; date: ReactNode; what: string; reference: string; amountCents: number; status: string; balance: ReactNode }) {
  return (
    <tr className="border-t border-border align-top" data-testid="ledger-row" data-kind={props.kind}>
      <td className="px-3 py-1.5">{props.date}</td>
      <td className="px-3 py-1.5">{props.what}</td>
      <td className="px-3 py-1.5">{props.reference}</td>
      <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(props.amountCents)}</td>
      <td className="px-3 py-1.5">{props.status}</td>
      <td className="px-3 py-1.5 text-right">—</td>
      <td className="px-3 py-1.5 text-right">—</td>
      <td className="px-3 py-1.5 text-right">—</td>
      {props.balance}
      <td className="px-3 py-1.5" />
    </tr>
  );
}
