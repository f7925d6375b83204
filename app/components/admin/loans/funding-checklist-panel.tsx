import { LIVE_FUNDING_STATUSES } from "~/domain/servicing-enums";
import { Ban, CheckCircle2, Circle, Landmark, Send, ShieldCheck } from "lucide-react";
import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { ReasonAndConfirm, useReason } from "~/components/admin/reason-dialog-form";
import { useEachAnswer } from "~/components/use-each-answer";
import { Button, type ButtonProps } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { controlClass, Field } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { PendingButton } from "~/components/ui/pending-button";
import { todayUtc } from "~/domain/dates";
import { formatDate, formatDateTime } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { ACH_RETURN_CODES } from "~/domain/servicing-enums";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import {
  cancelLoanSchema,
  LOAN_FUNDING_LIMITS,
  recordFeeCollectedSchema,
  returnFundingSchema,
  settleFundingSchema,
  type LoanFundingIntent,
} from "~/domain/validation/loan-funding";
import type { LoanPaymentActionData } from "~/domain/validation/loan-payments";
import type { StaffLoanFunding } from "~/domain/views/staff-loans";

const day = (value: string | null) => (value ? <time dateTime={value}>{formatDate(`${value}T12:00:00Z`, "UTC")}</time> : "—");
const instant = (value: string | null) => (value ? <time dateTime={value}>{formatDateTime(value, "UTC", { zone: true })}</time> : "—");

/** A fetcher for one funding intent of the loan's page: its answer shown as a toast, `onOk` after a success. */
function useFundingFetcher(loanId: string, intent: LoanFundingIntent, onAnswer?: (data: LoanPaymentActionData) => void) {
  const fetcher = useFetcher<LoanPaymentActionData>({ key: `${intent}-${loanId}` });
  useActionToast(fetcher.data);
  useEachAnswer(fetcher.data, (data) => onAnswer?.(data));
  return fetcher;
}

/**
 * The staff loan page's Funding Checklist: each item met or not, with who and when; Fund Loan (enabled
 * only when every item is met; the checklist's fingerprint goes with it, so a checklist changed since
 * the page was loaded is refused), the credit's state and its actions (Release Funds for another staff
 * member, Cancel Funding, Mark Funds Settled, Mark Funds Returned), Record Fee Collected, Accept ID
 * Document and Cancel Loan. The server decides every one; the page only hides what it refuses.
 */
export function FundingChecklistPanel({ loanId, funding }: { loanId: string; funding: StaffLoanFunding }) {
  const awaiting = funding.loanStatus === "awaiting_funding";
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="funding-checklist-heading" data-testid="funding-checklist">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="funding-checklist-heading" className="text-lg font-semibold text-primary">
          Funding Checklist
        </h2>
        <span className="inline-block rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold" data-testid="loan-funding-status">
          {funding.loanStatusLabel}
        </span>
      </div>
      {funding.cancelled ? (
        <p className="mt-2 text-sm text-slate-800" data-testid="loan-cancelled">
          Cancelled {instant(funding.cancelled.at)}
          {funding.cancelled.by ? ` by ${funding.cancelled.by}` : ""}: the agreement is void. Reason: <span className="break-words whitespace-pre-line">{funding.cancelled.reason}</span>
        </p>
      ) : null}
      {funding.fundedOn ? (
        <p className="mt-2 text-sm text-slate-800" data-testid="funded-on">
          Funded on {day(funding.fundedOn)}: interest accrues from that day.
        </p>
      ) : null}
      <ul className="mt-3 flex flex-col gap-3 text-sm" aria-label="Funding checklist items">
        {funding.checklist.map((item) => (
          <li key={item.key} className="flex items-start gap-2" data-testid="checklist-item" data-key={item.key} data-met={item.met ? "true" : "false"}>
            {item.met ? <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700" /> : <Circle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />}
            <div className="min-w-0">
              <p className="font-semibold">
                {item.label}: <span className={item.met ? "text-green-800" : "text-slate-700"}>{item.met ? "Met" : "Not met"}</span>
              </p>
              <p className="break-words text-slate-700">{item.detail}</p>
              {item.met && (item.who || item.when) ? (
                <p className="text-xs text-muted-foreground">
                  {item.who ? `By ${item.who}` : null}
                  {item.who && item.when ? ", " : null}
                  {item.when ? instant(item.when) : null}
                </p>
              ) : null}
              {item.key === "identity_document" && awaiting ? <IdDocuments loanId={loanId} documents={funding.idDocuments} /> : null}
              {item.key === "origination_fee" && funding.canRecordFee ? <RecordFeeCollected loanId={loanId} /> : null}
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm">
        Net proceeds: <strong data-testid="net-proceeds">{formatMoney(funding.netProceedsCents)}</strong>
        {funding.feeHandling === "deducted" ? ` (the amount less the ${formatMoney(funding.feeCents)} origination fee)` : " (the fee was collected separately)"}
        {funding.fourEyes ? ". At or above the four-eyes threshold: another staff member must Release Funds." : "."}
      </p>
      {funding.credit ? <Credit loanId={loanId} funding={funding} /> : null}
      {awaiting ? (
        <div className="mt-4 flex flex-wrap items-start gap-3">
          <FundLoan loanId={loanId} funding={funding} />
          <CancelLoan loanId={loanId} funding={funding} />
        </div>
      ) : null}
    </Card>
  );
}

function FundLoan({ loanId, funding }: { loanId: string; funding: StaffLoanFunding }) {
  const fetcher = useFundingFetcher(loanId, "fund-loan");
  const pending = fetcher.state !== "idle";
  const hintId = useId();
  return (
    <fetcher.Form method="post" action={`/admin/loans/${loanId}`}>
      <input type="hidden" name="intent" value="fund-loan" />
      <input type="hidden" name="fingerprint" value={funding.fingerprint} />
      <SubmitWhenEnabled enabled={funding.canFund} pending={pending} icon={<Send aria-hidden="true" />} aria-describedby={funding.canFund ? undefined : hintId} data-action="fund-loan">
        Fund Loan
      </SubmitWhenEnabled>
      {funding.canFund ? null : (
        <p id={hintId} className="mt-1 text-xs text-muted-foreground">
          {funding.credit && (LIVE_FUNDING_STATUSES as readonly string[]).includes(funding.credit.status) ? "The loan already has a funding credit." : "Enabled when every checklist item is met."}
        </p>
      )}
    </fetcher.Form>
  );
}

/** A submit button that is disabled when the server would refuse it, and while its post runs. */
function SubmitWhenEnabled({ enabled, pending, icon, children, ...props }: ButtonProps & { enabled: boolean; pending: boolean; icon: ReactNode }) {
  if (!enabled)
    return (
      <Button {...props} type="submit" disabled>
        {icon}
        {children}
      </Button>
    );
  return (
    <PendingButton {...props} type="submit" pending={pending} icon={icon}>
      {children}
    </PendingButton>
  );
}

/** A button posting one intent with no fields (Release Funds, Cancel Funding). */
function IntentButton({ loanId, intent, label, icon, enabled, variant }: { loanId: string; intent: LoanFundingIntent; label: string; icon: ReactNode; enabled: boolean; variant?: "outline" | "destructive" }) {
  const fetcher = useFundingFetcher(loanId, intent);
  return (
    <fetcher.Form method="post" action={`/admin/loans/${loanId}`}>
      <input type="hidden" name="intent" value={intent} />
      <SubmitWhenEnabled enabled={enabled} variant={variant} pending={fetcher.state !== "idle"} icon={icon} data-action={intent}>
        {label}
      </SubmitWhenEnabled>
    </fetcher.Form>
  );
}

function Credit({ loanId, funding }: { loanId: string; funding: StaffLoanFunding }) {
  const credit = funding.credit!;
  return (
    <div className="mt-4 rounded-md border border-border p-3 text-sm" data-testid="funding-credit" data-status={credit.status}>
      <h3 className="text-base font-semibold text-primary">Funding Credit</h3>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 min-[480px]:grid-cols-2 lg:grid-cols-3">
        <Item label="Status">{credit.statusLabel}</Item>
        <Item label="Amount">
          {formatMoney(credit.amountCents)} ({credit.secCode})
        </Item>
        <Item label="To Account">{credit.account}</Item>
        <Item label="Prepared">
          {credit.preparedBy ?? "—"}, {instant(credit.preparedAt)}
        </Item>
        <Item label="Released">{credit.releasedAt ? <>{credit.releasedBy ?? "—"}, {instant(credit.releasedAt)}</> : "—"}</Item>
        <Item label="Effective Date">{day(credit.effectiveDate)}</Item>
        {credit.settledOn ? <Item label="Settled On">{day(credit.settledOn)}</Item> : null}
        {credit.returnText ? (
          <Item label="Returned">
            {credit.returnText}, {day(credit.returnedOn)}
          </Item>
        ) : null}
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        {credit.status === "prepared" ? <IntentButton loanId={loanId} intent="release-funds" label="Release Funds" icon={<ShieldCheck aria-hidden="true" />} enabled={funding.canRelease} /> : null}
        {credit.status === "prepared" && !funding.canRelease ? <p className="basis-full text-xs text-muted-foreground">Another staff member than the preparer releases the funds.</p> : null}
        {funding.canCancelFunding ? <IntentButton loanId={loanId} intent="cancel-funding" label="Cancel Funding" icon={<Ban aria-hidden="true" />} enabled variant="outline" /> : null}
        {funding.canMarkSettledOrReturned ? (
          <>
            <SettleFunding loanId={loanId} effectiveDate={credit.effectiveDate} />
            <ReturnFunding loanId={loanId} />
          </>
        ) : null}
      </div>
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-semibold break-words">{children}</dd>
    </div>
  );
}

function IdDocuments({ loanId, documents }: { loanId: string; documents: StaffLoanFunding["idDocuments"] }) {
  const waiting = documents.filter((d) => !d.accepted);
  if (waiting.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-col gap-1" aria-label="ID documents to accept">
      {waiting.map((d) => (
        <li key={d.id} className="flex flex-wrap items-center gap-2">
          <span>
            {d.label}: {d.fileName}
          </span>
          <AcceptIdDocument loanId={loanId} documentId={d.id} name={`${d.label} ${d.fileName}`} />
        </li>
      ))}
    </ul>
  );
}

function AcceptIdDocument({ loanId, documentId, name }: { loanId: string; documentId: string; name: string }) {
  const fetcher = useFetcher<LoanPaymentActionData>({ key: `accept-id-document-${documentId}` });
  useActionToast(fetcher.data);
  return (
    <fetcher.Form method="post" action={`/admin/loans/${loanId}`}>
      <input type="hidden" name="intent" value="accept-id-document" />
      <input type="hidden" name="documentId" value={documentId} />
      <PendingButton type="submit" size="sm" variant="outline" pending={fetcher.state !== "idle"} icon={<CheckCircle2 aria-hidden="true" />} aria-label={`Accept ID Document ${name}`}>
        Accept ID Document
      </PendingButton>
    </fetcher.Form>
  );
}

/** A dialog with one form of fields, validated by its schema before posting; closes on success. */
function FieldsDialog(props: {
  loanId: string;
  intent: LoanFundingIntent;
  title: string;
  description: string;
  opener: { label: string; icon: ReactNode; variant?: "outline" | "destructive" };
  confirm: string;
  validate: (values: Record<string, string>) => { ok: true } | { ok: false; errors: FieldErrors };
  initial: Record<string, string>;
  fields: (values: Record<string, string>, set: (name: string, value: string) => void, errors: FieldErrors, pending: boolean, id: string) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(props.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();
  const fetcher = useFundingFetcher(props.loanId, props.intent, (data) => {
    if (data.ok) {
      setOpen(false);
      setValues(props.initial);
    } else if (data.fieldErrors) setErrors(data.fieldErrors);
  });
  const pending = fetcher.state !== "idle";
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const checked = props.validate(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    void fetcher.submit({ intent: props.intent, ...values }, { method: "post", action: `/admin/loans/${props.loanId}` });
  }
  return (
    <>
      <Button ref={opener} variant={props.opener.variant ?? "outline"} onClick={() => setOpen(true)} data-action={props.intent}>
        {props.opener.icon}
        {props.opener.label}
      </Button>
      <ModalDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setErrors({});
        }}
        onCloseFocus={() => opener.current?.focus()}
        title={props.title}
        description={props.description}
        testId={`${props.intent}-dialog`}
      >
        <form method="post" action={`/admin/loans/${props.loanId}`} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-1">
          <input type="hidden" name="intent" value={props.intent} />
          {props.fields(values, (name, value) => {
            setValues((v) => ({ ...v, [name]: value }));
            setErrors((e) => ({ ...e, [name]: undefined }));
          }, errors, pending, id)}
          <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogCloseButton>Cancel</DialogCloseButton>
            <PendingButton type="submit" pending={pending} icon={props.opener.icon} aria-disabled={pending || undefined}>
              {props.confirm}
            </PendingButton>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}

const schemaCheck =
  <T,>(schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: Parameters<typeof issuesToFieldErrors>[0] } }, intent: LoanFundingIntent) =>
  (values: Record<string, string>): { ok: true } | { ok: false; errors: FieldErrors } => {
    const parsed = schema.safeParse({ intent, ...values });
    return parsed.success ? { ok: true } : { ok: false, errors: issuesToFieldErrors(parsed.error) };
  };

function SettleFunding({ loanId, effectiveDate }: { loanId: string; effectiveDate: string | null }) {
  const today = todayUtc();
  return (
    <FieldsDialog
      loanId={loanId}
      intent="settle-funding"
      title="Mark Funds Settled"
      description="The bank settled the credit: the loan becomes active and interest accrues from the settlement date. The borrower is e-mailed."
      opener={{ label: "Mark Funds Settled", icon: <Landmark aria-hidden="true" /> }}
      confirm="Mark Settled"
      initial={{ settledOn: today }}
      validate={schemaCheck(settleFundingSchema(today), "settle-funding")}
      fields={(values, set, errors, pending, id) => (
        <Field id={`${id}-settled`} label="Settlement Date" required hint={effectiveDate ? `Not before the file's effective date, ${effectiveDate}.` : undefined} errors={errors.settledOn} liveErrors>
          {(a11y) => <Input {...a11y} name="settledOn" type="date" min={effectiveDate ?? undefined} max={today} value={values.settledOn} onChange={(e) => set("settledOn", e.target.value)} disabled={pending} />}
        </Field>
      )}
    />
  );
}

function ReturnFunding({ loanId }: { loanId: string }) {
  const today = todayUtc();
  return (
    <FieldsDialog
      loanId={loanId}
      intent="return-funding"
      title="Mark Funds Returned"
      description="The bank returned the credit: the loan awaits funding again and the borrower is asked for another account."
      opener={{ label: "Mark Funds Returned", icon: <Ban aria-hidden="true" /> }}
      confirm="Mark Returned"
      initial={{ returnCode: "R03", returnedOn: today }}
      validate={schemaCheck(returnFundingSchema(today), "return-funding")}
      fields={(values, set, errors, pending, id) => (
        <>
          <Field id={`${id}-code`} label="Return Code" required errors={errors.returnCode} liveErrors>
            {(a11y) => (
              <select {...a11y} name="returnCode" className={controlClass} value={values.returnCode} onChange={(e) => set("returnCode", e.target.value)} disabled={pending}>
                {ACH_RETURN_CODES.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.code} {c.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id={`${id}-returned`} label="Return Date" required errors={errors.returnedOn} liveErrors>
            {(a11y) => <Input {...a11y} name="returnedOn" type="date" max={today} value={values.returnedOn} onChange={(e) => set("returnedOn", e.target.value)} disabled={pending} />}
          </Field>
        </>
      )}
    />
  );
}

function RecordFeeCollected({ loanId }: { loanId: string }) {
  return (
    <div className="mt-1">
      <FieldsDialog
        loanId={loanId}
        intent="record-fee-collected"
        title="Record Fee Collected"
        description="The origination fee was paid separately: it is no longer deducted, and the net proceeds become the whole amount."
        opener={{ label: "Record Fee Collected", icon: <CheckCircle2 aria-hidden="true" /> }}
        confirm="Record Fee"
        initial={{ reference: "" }}
        validate={schemaCheck(recordFeeCollectedSchema, "record-fee-collected")}
        fields={(values, set, errors, pending, id) => (
          <Field id={`${id}-reference`} label="Reference" required hint="Check number, wire or ACH reference of the fee's payment." errors={errors.reference} liveErrors>
            {(a11y) => (
              <Input {...a11y} name="reference" autoComplete="off" maxLength={LOAN_FUNDING_LIMITS.referenceMaxLength} value={values.reference} onChange={(e) => set("reference", e.target.value)} disabled={pending} />
            )}
          </Field>
        )}
      />
    </div>
  );
}

function CancelLoan({ loanId, funding }: { loanId: string; funding: StaffLoanFunding }) {
  const [open, setOpen] = useState(false);
  const reason = useReason();
  const opener = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  const fetcher = useFundingFetcher(loanId, "cancel-loan", (data) => {
    if (!data.ok && data.fieldErrors?.reason) {
      reason.refuse(data.fieldErrors.reason);
      return;
    }
    if (data.ok) {
      reason.clear();
      setOpen(false);
    }
  });
  const pending = fetcher.state !== "idle";
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const parsed = cancelLoanSchema.safeParse({ intent: "cancel-loan", reason: reason.value });
    if (!parsed.success) {
      reason.refuse(issuesToFieldErrors(parsed.error).reason);
      return;
    }
    void fetcher.submit({ intent: "cancel-loan", reason: parsed.data.reason }, { method: "post", action: `/admin/loans/${loanId}` });
  }
  return (
    <div>
      <Button ref={opener} variant="outline" onClick={() => setOpen(true)} disabled={!funding.canCancelLoan} aria-describedby={hintId} data-action="cancel-loan">
        <Ban aria-hidden="true" />
        Cancel Loan
      </Button>
      <p id={hintId} className="mt-1 text-xs text-muted-foreground">
        A loan not funded within the funding deadline can be cancelled from {day(funding.cancellableFrom)}.
      </p>
      <ModalDialog
        open={open}
        onOpenChange={reason.dismissWith(() => setOpen(false))}
        onCloseFocus={() => opener.current?.focus()}
        title="Cancel Loan"
        description="The loan was not funded in time: the agreement becomes void, a credit not yet sent is cancelled, and the borrower is e-mailed the reason."
        testId="cancel-loan-dialog"
      >
        <form method="post" action={`/admin/loans/${loanId}`} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
          <ReasonAndConfirm
            {...reason.field}
            hint={`Between ${LOAN_FUNDING_LIMITS.reasonMinLength} and ${LOAN_FUNDING_LIMITS.reasonMaxLength} characters; the borrower reads it.`}
            maxLength={LOAN_FUNDING_LIMITS.reasonMaxLength}
            pending={pending}
            confirmLabel="Confirm Cancel Loan"
            pendingLabel="Cancelling…"
          >
            <input type="hidden" name="intent" value="cancel-loan" />
          </ReasonAndConfirm>
        </form>
      </ModalDialog>
    </div>
  );
}
