import { Ban, CheckCircle2, HandCoins, ShieldAlert, ShieldCheck, ShieldOff, XCircle } from "lucide-react";
import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { useStaffCan } from "~/components/admin/admin-shell";
import { useEachAnswer } from "~/components/use-each-answer";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { controlClass, Field, Textarea } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { LabelledOptions } from "~/components/ui/labelled-options";
import { PendingButton } from "~/components/ui/pending-button";
import { COLLECTIONS_LIMITS, PROTECTION_KIND_LABELS, PROTECTION_KINDS } from "~/domain/collections-enums";
import { todayUtc } from "~/domain/dates";
import { formatDate } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from "~/domain/servicing-enums";
import { chargeOffSchema, settleSchema, type ChargeOffActionData } from "~/domain/validation/charge-off";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { LOAN_PAYMENT_LIMITS } from "~/domain/validation/loan-payments";
import { BANKRUPTCY_OUTCOME_LABELS, BANKRUPTCY_OUTCOMES, endProtectionSchema, recordProtectionSchema, type ProtectionActionData } from "~/domain/validation/loan-protections";
import type { ChargeOffPanelData, ProtectionsPanelData, ProtectionView } from "~/domain/views/charge-off";
import type { StaffLoanPage } from "~/domain/views/staff-loans";

const day = (value: string | null) => (value ? <time dateTime={value}>{formatDate(`${value}T12:00:00Z`, "UTC")}</time> : "—");

type Answer = ChargeOffActionData | ProtectionActionData;
type Check = (values: Record<string, string>) => { ok: true } | { ok: false; errors: FieldErrors };

const schemaCheck =
  (schema: { safeParse: (v: unknown) => { success: true } | { success: false; error: Parameters<typeof issuesToFieldErrors>[0] } }, intent: string): Check =>
  (values) => {
    const parsed = schema.safeParse({ intent, ...values });
    return parsed.success ? { ok: true } : { ok: false, errors: issuesToFieldErrors(parsed.error) };
  };

/**
 * The staff loan page's late-loan close-out: the automatic-stay banner (an active bankruptcy), the
 * Protections panel (servicemember and bankruptcy; Record Protection, End Protection) and the
 * Charge-off panel (Charge Off, its four-eyes approval, recoveries, Record Settlement). The server
 * decides every action; the page only hides what the staff member's role cannot do.
 */
export function ChargeOffAndProtectionPanels({ data }: { data: StaffLoanPage }) {
  if (!data.chargeOff || !data.protections) return null;
  return (
    <>
      {data.protections.stay ? (
        <div role="status" className="rounded-md border-2 border-red-700 bg-red-50 p-4 text-sm text-red-900" data-testid="bankruptcy-stay-banner">
          <p className="flex items-center gap-2 font-semibold">
            <ShieldAlert aria-hidden="true" className="size-5" />
            Bankruptcy: automatic stay
          </p>
          <p className="mt-1">
            The borrower filed for bankruptcy on {day(data.protections.stay.startsOn)} ({data.protections.stay.reference}). Collections, reminders, late notices and autopay are stopped:
            do not contact the borrower to collect.
          </p>
        </div>
      ) : null}
      <ProtectionsPanel loanId={data.loan.id} panel={data.protections} />
      <ChargeOffPanel loanId={data.loan.id} panel={data.chargeOff} today={data.today} />
    </>
  );
}

function useAnswerFetcher(key: string, onAnswer?: (data: Answer) => void) {
  const fetcher = useFetcher<Answer>({ key });
  useActionToast(fetcher.data);
  useEachAnswer(fetcher.data, (data) => onAnswer?.(data));
  return fetcher;
}

/** A dialog with one form, checked by its schema before posting; closes on success, shows the server's field errors. */
function FormDialog(props: {
  action: string;
  intent: string;
  fetcherKey: string;
  title: string;
  description: string;
  opener: { label: string; icon: ReactNode; variant?: "outline" | "destructive"; ariaLabel?: string };
  confirm: string;
  destructive?: boolean;
  validate: Check;
  initial: Record<string, string>;
  hidden?: Record<string, string>;
  fields: (values: Record<string, string>, set: (name: string, value: string) => void, errors: FieldErrors, pending: boolean, id: string) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(props.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const opener = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const fetcher = useAnswerFetcher(props.fetcherKey, (data) => {
    if (data.ok) {
      setOpen(false);
      setValues(props.initial);
    } else if (data.fieldErrors) {
      setErrors(data.fieldErrors);
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
    }
  });
  const pending = fetcher.state !== "idle";
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const all = { ...props.hidden, ...values };
    const checked = props.validate(all);
    if (!checked.ok) {
      setErrors(checked.errors);
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    void fetcher.submit({ intent: props.intent, ...all }, { method: "post", action: props.action });
  }
  return (
    <>
      <Button ref={opener} variant={props.opener.variant ?? "outline"} onClick={() => setOpen(true)} data-action={props.intent} aria-label={props.opener.ariaLabel}>
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
        <form ref={formRef} method="post" action={props.action} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-1">
          <input type="hidden" name="intent" value={props.intent} />
          {Object.entries(props.hidden ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {props.fields(
            values,
            (name, value) => {
              setValues((v) => ({ ...v, [name]: value }));
              setErrors((e) => ({ ...e, [name]: undefined }));
            },
            errors,
            pending,
            id,
          )}
          <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogCloseButton>Cancel</DialogCloseButton>
            <PendingButton type="submit" variant={props.destructive ? "destructive" : "default"} pending={pending} icon={props.opener.icon} aria-disabled={pending || undefined}>
              {props.confirm}
            </PendingButton>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}

/** A one-click form (Approve Charge-off, Reject Charge-off). */
function OneClick(props: { action: string; intent: string; fields: Record<string, string>; label: string; icon: ReactNode; variant?: "outline" | "destructive" | "default"; disabled?: boolean; describedBy?: string }) {
  const fetcher = useAnswerFetcher(`${props.intent}-${props.action}`);
  const pending = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={props.action}>
      <input type="hidden" name="intent" value={props.intent} />
      {Object.entries(props.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <PendingButton type="submit" variant={props.variant ?? "outline"} pending={pending} icon={props.icon} disabled={props.disabled} aria-describedby={props.describedBy} data-action={props.intent}>
        {props.label}
      </PendingButton>
    </fetcher.Form>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function ProtectionsPanel({ loanId, panel }: { loanId: string; panel: ProtectionsPanelData }) {
  const canWork = useStaffCan("collections.work");
  const action = `/admin/loans/${loanId}/protections`;
  const today = todayUtc();
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="protections-heading" data-testid="protections">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="protections-heading" className="text-lg font-semibold text-primary">
          Protections
        </h2>
        {canWork && panel.recordable ? (
          <FormDialog
            action={action}
            intent="record-protection"
            fetcherKey={`record-protection-${loanId}`}
            title="Record Protection"
            description="An active-duty servicemember (interest above 6% is forgiven from the start of service; collections contact stops) or a bankruptcy filing (collections, notices and autopay stop at once)."
            opener={{ label: "Record Protection", icon: <ShieldCheck aria-hidden="true" /> }}
            confirm="Record Protection"
            validate={schemaCheck(recordProtectionSchema(today), "record-protection")}
            initial={{ kind: "servicemember", startsOn: "", endsOn: "", reference: "", note: "" }}
            fields={(values, set, errors, pending, id) => (
              <>
                <Field id={`${id}-kind`} label="Protection" required errors={errors.kind} liveErrors>
                  {(a11y) => (
                    <select {...a11y} name="kind" className={controlClass} value={values.kind} onChange={(e) => set("kind", e.target.value)} disabled={pending}>
                      <LabelledOptions values={PROTECTION_KINDS} labels={PROTECTION_KIND_LABELS} />
                    </select>
                  )}
                </Field>
                <Field id={`${id}-starts`} label={values.kind === "bankruptcy" ? "Filing Date" : "Start of Active Duty"} required hint="May be in the past." errors={errors.startsOn} liveErrors>
                  {(a11y) => <Input {...a11y} name="startsOn" type="date" max={today} value={values.startsOn} onChange={(e) => set("startsOn", e.target.value)} disabled={pending} />}
                </Field>
                <Field id={`${id}-ends`} label="End (optional)" hint={values.kind === "bankruptcy" ? "Only for a case already closed." : "The end of active duty, when known."} errors={errors.endsOn} liveErrors>
                  {(a11y) => <Input {...a11y} name="endsOn" type="date" value={values.endsOn} onChange={(e) => set("endsOn", e.target.value)} disabled={pending} />}
                </Field>
                <Field id={`${id}-reference`} label={values.kind === "bankruptcy" ? "Case Number and Court" : "Orders"} required errors={errors.reference} liveErrors>
                  {(a11y) => <Input {...a11y} name="reference" maxLength={COLLECTIONS_LIMITS.referenceMaxLength} value={values.reference} onChange={(e) => set("reference", e.target.value)} disabled={pending} />}
                </Field>
                <Field id={`${id}-note`} label="Note (optional)" errors={errors.note} liveErrors>
                  {(a11y) => <Textarea {...a11y} name="note" maxLength={COLLECTIONS_LIMITS.noteMaxLength} value={values.note} onChange={(e) => set("note", e.target.value)} disabled={pending} />}
                </Field>
              </>
            )}
          />
        ) : null}
      </div>
      {panel.scra ? (
        <p className="mt-2 text-sm" data-testid="scra-interest-removed">
          {panel.scra.capApplies
            ? `The ${panel.scra.capRatePercent}% servicemember cap on the ${panel.scra.noteRatePercent}% note rate has removed ${formatMoney(panel.scra.interestRemovedCents)} of interest to today.`
            : `The note rate (${panel.scra.noteRatePercent}%) is not above the ${panel.scra.capRatePercent}% servicemember cap: no interest is removed.`}
        </p>
      ) : null}
      {panel.protections.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No protection recorded.</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3 text-sm">
          {panel.protections.map((p) => (
            <ProtectionItem key={p.id} loanId={loanId} protection={p} canWork={canWork} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function ProtectionItem({ loanId, protection: p, canWork }: { loanId: string; protection: ProtectionView; canWork: boolean }) {
  const today = todayUtc();
  return (
    <li className="rounded-md border border-border p-3" data-testid="protection" data-kind={p.kind} data-active={p.active ? "true" : "false"}>
      <p className="font-semibold">
        {p.kindLabel} <span className="font-normal text-muted-foreground">· {p.active ? "Active" : p.endedAt ? "Ended" : "Not in force"}</span>
      </p>
      <p>
        From {day(p.startsOn)}
        {p.endsOn ? <> to {day(p.endsOn)}</> : null} · {p.reference} · recorded by {p.recordedBy}
      </p>
      {p.note ? <p className="break-words whitespace-pre-line text-muted-foreground">{p.note}</p> : null}
      {canWork && !p.endedAt ? (
        <div className="mt-2">
          <FormDialog
            action={`/admin/loans/${loanId}/protections`}
            intent="end-protection"
            fetcherKey={`end-protection-${p.id}`}
            title="End Protection"
            description={p.kind === "bankruptcy" ? "The case was dismissed or discharged: the stay ends that day." : "The last day of active duty: the 6% cap ends that day."}
            opener={{ label: "End Protection", icon: <ShieldOff aria-hidden="true" />, ariaLabel: `End Protection: ${p.kindLabel}` }}
            confirm="End Protection"
            validate={schemaCheck(endProtectionSchema, "end-protection")}
            initial={p.kind === "bankruptcy" ? { endsOn: today, outcome: "dismissed" } : { endsOn: today }}
            hidden={{ protectionId: p.id }}
            fields={(values, set, errors, pending, id) => (
              <>
                <Field id={`${id}-ends`} label={p.kind === "bankruptcy" ? "Case Ended On" : "Last Day of Active Duty"} required errors={errors.endsOn} liveErrors>
                  {(a11y) => <Input {...a11y} name="endsOn" type="date" min={p.startsOn} max={today} value={values.endsOn} onChange={(e) => set("endsOn", e.target.value)} disabled={pending} />}
                </Field>
                {p.kind === "bankruptcy" ? (
                  <Field id={`${id}-outcome`} label="Outcome" required errors={errors.outcome} liveErrors>
                    {(a11y) => (
                      <select {...a11y} name="outcome" className={controlClass} value={values.outcome} onChange={(e) => set("outcome", e.target.value)} disabled={pending}>
                        <LabelledOptions values={BANKRUPTCY_OUTCOMES} labels={BANKRUPTCY_OUTCOME_LABELS} />
                      </select>
                    )}
                  </Field>
                ) : null}
              </>
            )}
          />
        </div>
      ) : null}
    </li>
  );
}

function ChargeOffPanel({ loanId, panel, today }: { loanId: string; panel: ChargeOffPanelData; today: string }) {
  const canManage = useStaffCan("servicing.manage");
  const action = `/admin/loans/${loanId}/charge-off`;
  const selfHint = useId();
  const proposed = panel.eligible && panel.daysPastDue >= panel.chargeOffDays;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="charge-off-heading" data-testid="charge-off">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="charge-off-heading" className="text-lg font-semibold text-primary">
          Charge-off and Settlement
        </h2>
        <div className="flex flex-wrap gap-2">
          {canManage && panel.eligible && !panel.pending ? (
            <FormDialog
              action={action}
              intent="charge-off"
              fetcherKey={`charge-off-${loanId}`}
              title="Charge Off"
              description={`The ${formatMoney(panel.owedCents)} owed today moves to charged off: no more interest, fees, notices or autopay; later payments post as recoveries.${
                panel.owedCents >= panel.fourEyesThresholdCents ? " At or above the four-eyes threshold, another admin must approve it." : ""
              }`}
              opener={{ label: "Charge Off", icon: <Ban aria-hidden="true" />, variant: "destructive" }}
              confirm="Confirm Charge Off"
              destructive
              validate={schemaCheck(chargeOffSchema, "charge-off")}
              initial={{ reason: "" }}
              fields={(values, set, errors, pending, id) => (
                <Field id={`${id}-reason`} label="Reason" required hint="Why the loan will not be repaid as agreed; kept with the loan." errors={errors.reason} liveErrors>
                  {(a11y) => <Textarea {...a11y} name="reason" maxLength={COLLECTIONS_LIMITS.reasonMaxLength} value={values.reason} onChange={(e) => set("reason", e.target.value)} disabled={pending} className="min-h-24" />}
                </Field>
              )}
            />
          ) : null}
          {canManage && panel.settleable ? (
            <FormDialog
              action={action}
              intent="settle"
              fetcherKey={`settle-${loanId}`}
              title="Record Settlement"
              description="The borrower paid an agreed amount less than what is owed: it is posted on its day and the rest is forgiven. The loan closes as Settled and takes no more payments."
              opener={{ label: "Record Settlement", icon: <HandCoins aria-hidden="true" /> }}
              confirm="Record Settlement"
              validate={schemaCheck(settleSchema(today), "settle")}
              initial={{ amount: "", receivedOn: today, method: "ach", reference: "" }}
              fields={(values, set, errors, pending, id) => (
                <>
                  <Field id={`${id}-amount`} label="Amount Received" required hint="The agreed amount, in dollars." errors={errors.amount} liveErrors>
                    {(a11y) => <Input {...a11y} name="amount" inputMode="decimal" autoComplete="off" value={values.amount} onChange={(e) => set("amount", e.target.value)} disabled={pending} />}
                  </Field>
                  <Field id={`${id}-received`} label="Received Date" required hint="The loan is settled on this day." errors={errors.receivedOn} liveErrors>
                    {(a11y) => <Input {...a11y} name="receivedOn" type="date" max={today} value={values.receivedOn} onChange={(e) => set("receivedOn", e.target.value)} disabled={pending} />}
                  </Field>
                  <Field id={`${id}-method`} label="Method" required errors={errors.method} liveErrors>
                    {(a11y) => (
                      <select {...a11y} name="method" className={controlClass} value={values.method} onChange={(e) => set("method", e.target.value)} disabled={pending}>
                        <LabelledOptions values={PAYMENT_METHODS} labels={PAYMENT_METHOD_LABELS} />
                      </select>
                    )}
                  </Field>
                  <Field id={`${id}-reference`} label="Reference" required errors={errors.reference} liveErrors>
                    {(a11y) => <Input {...a11y} name="reference" maxLength={LOAN_PAYMENT_LIMITS.referenceMaxLength} value={values.reference} onChange={(e) => set("reference", e.target.value)} disabled={pending} />}
                  </Field>
                </>
              )}
            />
          ) : null}
        </div>
      </div>
      {proposed && !panel.pending ? (
        <p className="mt-2 text-sm font-medium text-red-800" data-testid="charge-off-proposed">
          {panel.daysPastDue} days past due: proposed for charge-off (at {panel.chargeOffDays} days).
        </p>
      ) : null}
      {panel.pending ? (
        <div className="mt-3 rounded-md border border-amber-600 p-3 text-sm" data-testid="charge-off-pending">
          <p className="font-semibold">Charge-off Awaiting Approval</p>
          <p>
            {formatMoney(panel.pending.amountCents)} proposed by {panel.pending.requestedBy}: <span className="break-words whitespace-pre-line">{panel.pending.reason}</span>
          </p>
          {canManage ? (
            <div className="mt-2 flex flex-wrap gap-2">
              <OneClick
                action={action}
                intent="approve-charge-off"
                fields={{ requestId: panel.pending.id }}
                label="Approve Charge-off"
                icon={<CheckCircle2 aria-hidden="true" />}
                variant="destructive"
                disabled={panel.pending.requestedByViewer}
                describedBy={panel.pending.requestedByViewer ? selfHint : undefined}
              />
              <OneClick action={action} intent="reject-charge-off" fields={{ requestId: panel.pending.id }} label="Reject Charge-off" icon={<XCircle aria-hidden="true" />} />
            </div>
          ) : null}
          {panel.pending.requestedByViewer ? (
            <p id={selfHint} className="mt-1 text-xs text-muted-foreground">
              You proposed it: another admin must approve it.
            </p>
          ) : null}
        </div>
      ) : null}
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
        {panel.chargedOff ? (
          <>
            <Fact label="Charged Off On">{day(panel.chargedOff.on)}</Fact>
            <Fact label="Amount Charged Off" testId="charged-off-amount">
              {formatMoney(panel.chargedOff.amountCents)}
            </Fact>
            <Fact label="Recoveries" testId="recovered-amount">
              {formatMoney(panel.recoveredCents)}
            </Fact>
            <Fact label="Charged Off By">{panel.chargedOff.by}</Fact>
            <div className="min-[480px]:col-span-2 lg:col-span-4">
              <dt className="text-muted-foreground">Reason</dt>
              <dd className="break-words whitespace-pre-line">{panel.chargedOff.reason}</dd>
            </div>
          </>
        ) : (
          <>
            <Fact label="Owed Today">{formatMoney(panel.owedCents)}</Fact>
            <Fact label="Days Past Due">{panel.daysPastDue}</Fact>
          </>
        )}
        {panel.settled ? (
          <>
            <Fact label="Settled On">{day(panel.settled.on)}</Fact>
            <Fact label="Forgiven" testId="forgiven-amount">
              {formatMoney(panel.settled.forgivenCents)}
            </Fact>
            <Fact label="Settled By">{panel.settled.by}</Fact>
          </>
        ) : null}
      </dl>
    </Card>
  );
}

