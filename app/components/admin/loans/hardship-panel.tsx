import { CalendarClock, HandHeart, XCircle } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { Detail } from "~/components/ui/detail-list";
import { controlClass, Field, InputField, SubmitButton, TextareaField, useFormFetcher, type FormToast } from "~/components/ui/form";
import { COLLECTIONS_LIMITS } from "~/domain/collections-enums";
import { signedDifference } from "~/domain/hardship-plans";
import { MODIFICATION_KIND_LABELS, MODIFICATION_KINDS, MODIFICATION_LIMITS, type ModificationKind } from "~/domain/loan-modifications";
import { formatMoney } from "~/domain/money";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { closeRequestSchema, offerPlanSchema, type HardshipActionData } from "~/domain/validation/hardship";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import type { HardshipRequestView, PlanView, StaffHardshipPanelData } from "~/domain/views/hardship";

type Answer = HardshipActionData & { toast: FormToast };

const day = (iso: string) => formatAgreementDay(iso.slice(0, 10));

function valuesOf(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
}

/** Checks the form with the action's schema before it is sent; the server checks again. */
function useChecked(schema: { safeParse(v: unknown): { success: true } | { success: false; error: Parameters<typeof issuesToFieldErrors>[0] } }) {
  const [errors, setErrors] = useState<FieldErrors | undefined>(undefined);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const parsed = schema.safeParse(valuesOf(form));
    if (!parsed.success) {
      event.preventDefault();
      setErrors(issuesToFieldErrors(parsed.error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setErrors(undefined);
  };
  return { errors, onSubmit };
}

/**
 * Hardship (the staff loan page): the borrower's request for help in progress (reason, details, what
 * they can pay; Close Request with the reason the borrower reads), the plan offered (Withdraw Plan), and
 * Offer Plan (Deferment, Payment Plan or Change Due Date, from the first unpaid installment, within the
 * yearly limits), then every plan on the loan with its status and, once signed, its PDF. Posts to
 * /admin/loans/:id/hardship.
 */
export function HardshipPanel({ panel }: { panel: StaffHardshipPanelData | null | undefined }) {
  if (!panel) return null;
  const action = `/admin/loans/${panel.loanId}/hardship`;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="hardship-heading" data-testid="hardship-panel">
      <h2 id="hardship-heading" className="text-lg font-semibold text-primary">
        Hardship
      </h2>
      {panel.request ? <RequestBlock request={panel.request} action={action} offered={panel.offer !== null} /> : <p className="mt-2 text-sm text-muted-foreground">No request for help in progress.</p>}
      {panel.offer ? <OfferBlock offer={panel.offer} action={action} /> : null}
      {!panel.offer && panel.unavailable ? (
        <p className="mt-3 text-sm" data-testid="hardship-unavailable">
          {panel.unavailable}
        </p>
      ) : null}
      {!panel.offer && !panel.unavailable && panel.firstUnpaid ? <OfferPlanForm panel={panel} action={action} /> : null}
      {panel.plans.length > 0 ? <PlanHistory plans={panel.plans} /> : null}
    </Card>
  );
}

function RequestBlock({ request, action, offered }: { request: HardshipRequestView; action: string; offered: boolean }) {
  const close = useFormFetcher<Answer>(undefined);
  const checked = useChecked(closeRequestSchema);
  const errors = checked.errors ?? (close.data && !close.data.ok ? close.data.fieldErrors : undefined);
  return (
    <div className="mt-3 flex flex-col gap-3" data-testid="hardship-request">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">Request for help</span>
        <Badge variant={request.status === "offered" ? "info" : "warning"}>{request.statusLabel}</Badge>
      </div>
      <dl className="grid gap-3 text-sm sm:grid-cols-3">
        <Detail label="Asked On">{day(request.createdAt)}</Detail>
        <Detail label="Reason">{request.reasonLabel}</Detail>
        <Detail label="Can Pay a Month">{formatMoney(request.canPayCents)}</Detail>
      </dl>
      {request.details ? <p className="text-sm break-words whitespace-pre-line">{request.details}</p> : null}
      {offered ? null : (
        <close.fetcher.Form method="post" action={action} noValidate onSubmit={checked.onSubmit} className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
          <input type="hidden" name="intent" value="close-request" />
          <input type="hidden" name="requestId" value={request.id} />
          <TextareaField id="hardship-close-note" name="note" label="Reason for Closing" hint="The borrower reads it on their loan page" maxLength={COLLECTIONS_LIMITS.reasonMaxLength} errors={errors?.note} className="min-h-16" />
          <SubmitButton pending={close.pending} label="Close Request" pendingLabel="Closing…" icon={XCircle} variant="outline" className="sm:mt-6 sm:w-auto" />
        </close.fetcher.Form>
      )}
    </div>
  );
}

function Totals({ plan }: { plan: PlanView }) {
  if (!plan.totals) return null;
  const { before, after } = plan.totals;
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-4">
      <Detail label="Remaining Payments">
        {formatMoney(before.paymentsCents)} → {formatMoney(after.paymentsCents)} ({signedDifference(before.paymentsCents, after.paymentsCents)})
      </Detail>
      <Detail label="Finance Charge">
        {formatMoney(before.interestCents)} → {formatMoney(after.interestCents)} ({signedDifference(before.interestCents, after.interestCents)})
      </Detail>
      <Detail label="Payments Left">
        {before.installments} → {after.installments}
      </Detail>
      <Detail label="Last Payment Due">{after.lastDueDate ? formatAgreementDay(after.lastDueDate) : "—"}</Detail>
    </dl>
  );
}

function OfferBlock({ offer, action }: { offer: PlanView; action: string }) {
  const withdraw = useFormFetcher<Answer>(undefined);
  return (
    <div className="mt-4 flex flex-col gap-3 rounded-md border p-4" data-testid="hardship-offer">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">Plan offered: {offer.kindLabel}</span>
        <Badge variant={offer.status === "offered" ? "info" : "secondary"}>{offer.statusLabel}</Badge>
        <span className="text-sm text-muted-foreground">
          {offer.status === "offered" ? `open to sign through ${formatAgreementDay(offer.expiresOn)}` : `expired ${formatAgreementDay(offer.expiresOn)}`}
        </span>
      </div>
      <p className="text-sm">{offer.sentence}</p>
      <Totals plan={offer} />
      <withdraw.fetcher.Form method="post" action={action}>
        <input type="hidden" name="intent" value="withdraw-plan" />
        <input type="hidden" name="modificationId" value={offer.id} />
        <SubmitButton pending={withdraw.pending} label="Withdraw Plan" pendingLabel="Withdrawing…" icon={XCircle} variant="outline" className="sm:w-auto" />
      </withdraw.fetcher.Form>
    </div>
  );
}

function OfferPlanForm({ panel, action }: { panel: StaffHardshipPanelData; action: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [kind, setKind] = useState<ModificationKind | "">("");
  const offer = useFormFetcher<Answer>(undefined, (answer) => {
    if (answer.ok) {
      formRef.current?.reset();
      setKind("");
    }
  });
  const checked = useChecked(offerPlanSchema);
  const errors = checked.errors ?? (offer.data && !offer.data.ok ? offer.data.fieldErrors : undefined);
  const first = panel.firstUnpaid!;
  const limit = kind === "deferment" ? panel.limits.deferment : kind === "due_date_change" ? panel.limits.due_date_change : null;
  return (
    <offer.fetcher.Form ref={formRef} method="post" action={action} noValidate onSubmit={checked.onSubmit} className="mt-4 flex flex-col gap-3 border-t pt-4" data-testid="offer-plan-form">
      <h3 className="text-base font-semibold">Offer a Plan</h3>
      <p className="text-sm text-muted-foreground">
        From the first unpaid installment, #{first.number} due {formatAgreementDay(first.dueDate)}. The regular payment is {formatMoney(panel.regularPaymentCents)}. The borrower reviews the new schedule and signs it
        within 14 days.
      </p>
      <input type="hidden" name="intent" value="offer-plan" />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id="plan-kind" label="Plan" errors={errors?.kind} required>
          {(a11y) => (
            <select {...a11y} name="kind" required value={kind} onChange={(e) => setKind(e.currentTarget.value as ModificationKind | "")} className={controlClass}>
              <option value="">Choose a plan</option>
              {MODIFICATION_KINDS.map((k) => (
                <option key={k} value={k}>
                  {MODIFICATION_KIND_LABELS[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {kind === "deferment" ? (
          <InputField id="plan-count" name="count" label="Installments to Defer" hint={`1 to ${MODIFICATION_LIMITS.defermentMaxInstallments}`} inputMode="numeric" autoComplete="off" markRequired errors={errors?.count} />
        ) : null}
        {kind === "payment_plan" ? (
          <>
            <InputField id="plan-months" name="months" label="Months of Reduced Payments" hint={`1 to ${MODIFICATION_LIMITS.paymentPlanMaxMonths}`} inputMode="numeric" autoComplete="off" markRequired errors={errors?.months} />
            <InputField id="plan-reduced" name="reducedPayment" label="Reduced Payment" hint={`Less than ${formatMoney(panel.regularPaymentCents)}`} inputMode="decimal" autoComplete="off" markRequired errors={errors?.reducedPayment} />
          </>
        ) : null}
        {kind === "due_date_change" ? (
          <InputField id="plan-due-day" name="dueDay" label="New Due Day" hint={`${MODIFICATION_LIMITS.dueDayMin} to ${MODIFICATION_LIMITS.dueDayMax}`} inputMode="numeric" autoComplete="off" markRequired errors={errors?.dueDay} />
        ) : null}
      </div>
      {limit ? (
        <p className="text-sm font-medium" data-testid="plan-limit">
          {limit}
        </p>
      ) : null}
      <TextareaField id="plan-note" name="note" label="Note (optional)" hint="Kept with the offer for staff" maxLength={COLLECTIONS_LIMITS.reasonMaxLength} errors={errors?.note} className="min-h-16" />
      <SubmitButton pending={offer.pending} label="Offer Plan" pendingLabel="Offering…" icon={kind === "due_date_change" ? CalendarClock : HandHeart} className="sm:w-auto sm:self-start" />
    </offer.fetcher.Form>
  );
}

function PlanHistory({ plans }: { plans: PlanView[] }) {
  return (
    <div className="mt-4 border-t pt-4">
      <h3 className="text-base font-semibold">Plans on This Loan</h3>
      <ul className="mt-2 flex flex-col gap-2 text-sm" data-testid="hardship-plans">
        {plans.map((plan) => (
          <li key={plan.id}>
            <span className="font-medium">{plan.kindLabel}</span> · {plan.statusLabel} · offered {day(plan.offeredAt)}
            {plan.signedAt ? ` · signed ${day(plan.signedAt)} by ${plan.signerName ?? "the borrower"}` : ""}: {plan.sentence}{" "}
            {plan.fileUrl ? (
              <a href={plan.fileUrl} className="font-medium text-link underline-offset-4 hover:underline" download>
                Signed modification (PDF)
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
