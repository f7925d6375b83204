import { PenLine, XCircle } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { Breadcrumb } from "~/components/ui/breadcrumb";
import { Card } from "~/components/ui/card";
import { ConsentCheckbox } from "~/components/ui/consent-checkbox";
import { InputField, SubmitButton, useFormFetcher, type FormToast } from "~/components/ui/form";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { signedDifference } from "~/domain/hardship-plans";
import { loanTypeLabel } from "~/domain/labels";
import type { PaymentRow } from "~/domain/loan-schedule";
import { OFFER_LIMITS } from "~/domain/loan-offers";
import { formatMoney } from "~/domain/money";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { AGREE_TO_PLAN_LABEL, signPlanSchema, type HardshipActionData } from "~/domain/validation/hardship";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import type { PlanReviewPageData } from "~/domain/views/hardship";
import { LoanSection } from "./loan-section";

type Answer = HardshipActionData & { toast: FormToast };
const CELL = "px-3 py-2 whitespace-nowrap";

/**
 * The review page of a hardship plan offered (/dashboard/loans/:id/plan): the plan in words, its
 * effect on the total cost (what is left to pay and the finance charge in it, before and with the
 * plan, and the difference), the new Payment Schedule beside the one in force, then Sign Plan (typed
 * name, the agreement box) or Decline Plan. Both post to /dashboard/loans/:id/hardship; a signature or
 * a decline returns to the loan's page.
 */
export function PlanReviewPage({ data }: { data: PlanReviewPageData }) {
  const loanTitle = `Your ${loanTypeLabel(data.loanType)}`;
  const loanUrl = `/dashboard/loans/${data.loanId}`;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <Breadcrumb crumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: loanTitle, to: loanUrl }, { label: "Review Your Plan" }]} />
      <header className="mt-4 mb-8">
        <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">Review Your Plan</h1>
        <p className="mt-1 text-sm font-medium text-muted-foreground">Loan {data.loanReference}</p>
      </header>
      {data.state === "closed" || !data.plan || !data.totals ? (
        <Card className="p-5" data-testid="plan-closed">
          <p className="text-base">{data.closedMessage ?? "There is no plan to review on this loan."}</p>
          {data.plan ? (
            <p className="mt-2 text-sm text-muted-foreground">
              {data.plan.kindLabel}: {data.plan.statusLabel}
            </p>
          ) : null}
          <Link to={loanUrl} className="mt-4 inline-block font-medium text-link underline-offset-4 hover:underline">
            Back to your loan
          </Link>
        </Card>
      ) : (
        <div className="flex flex-col gap-10">
          <LoanSection titleId="plan-heading" title={`The Plan: ${data.plan.kindLabel}`}>
            <Card className="flex flex-col gap-2 p-5" data-testid="plan-sentence">
              <p>{data.plan.sentence}</p>
              <p className="text-sm text-muted-foreground">
                Nothing changes until you sign. This offer can be signed through {formatAgreementDay(data.plan.expiresOn)}. From the day you sign, your loan follows the new schedule; interest keeps
                accruing daily as your loan agreement says, and no late fee is charged on the installments the plan covers.
              </p>
            </Card>
          </LoanSection>
          <TableSection titleId="plan-cost-heading" title="Effect on the Total Cost">
            <CostTable data={data} />
          </TableSection>
          <TableSection titleId="plan-schedule-heading" title="New Payment Schedule">
            <ScheduleTable rows={data.after} labelledBy="plan-schedule-heading" testId="plan-new-schedule" />
          </TableSection>
          <TableSection titleId="plan-current-heading" title="Your Payment Schedule Now">
            <ScheduleTable rows={data.before} labelledBy="plan-current-heading" testId="plan-old-schedule" />
          </TableSection>
          {data.state === "consent" ? (
            <Card className="p-5" data-testid="plan-no-consent">
              Your consent to electronic records and signatures (E-SIGN) is not in force, so this plan cannot be signed online. Send us a message from your loan&apos;s page and we will send it to you on paper.
            </Card>
          ) : (
            <SignPlan data={data} />
          )}
        </div>
      )}
    </div>
  );
}

/** A section whose table is the named region (ScrollingTable, labelled by the heading): the section itself stays unnamed, so no two landmarks share a name. */
function TableSection({ titleId, title, children }: { titleId: string; title: string; children: ReactNode }) {
  return (
    <section>
      <h2 id={titleId} className="mb-3 text-2xl font-bold tracking-tight text-primary">
        {title}
      </h2>
      {children}
    </section>
  );
}

function CostTable({ data }: { data: PlanReviewPageData }) {
  const { before, after } = data.totals!;
  const rows: [string, string, string, string][] = [
    ["Total of remaining payments", formatMoney(before.paymentsCents), formatMoney(after.paymentsCents), signedDifference(before.paymentsCents, after.paymentsCents)],
    ["Finance charge (interest)", formatMoney(before.interestCents), formatMoney(after.interestCents), signedDifference(before.interestCents, after.interestCents)],
    ["Number of payments", String(before.installments), String(after.installments), String(after.installments - before.installments)],
    ["Last payment due", before.lastDueDate ? formatAgreementDay(before.lastDueDate) : "—", after.lastDueDate ? formatAgreementDay(after.lastDueDate) : "—", ""],
  ];
  return (
    <>
      <p className="mb-3 text-sm text-muted-foreground">From the plan&apos;s first installment on, if each payment arrives on its due date.</p>
      <ScrollingTable labelledBy="plan-cost-heading" tableClassName="min-w-[36rem]" testId="plan-cost">
        <TableHead className="bg-muted/60" cellClassName={CELL} columns={["Item", { label: "Now", className: "text-right" }, { label: "With the Plan", className: "text-right" }, { label: "Difference", className: "text-right" }]} />
        <tbody>
          {rows.map(([label, now, withPlan, diff]) => (
            <tr key={label} className="border-t">
              <th scope="row" className={`${CELL} text-left font-medium`}>
                {label}
              </th>
              <td className={`${CELL} text-right`}>{now}</td>
              <td className={`${CELL} text-right`}>{withPlan}</td>
              <td className={`${CELL} text-right font-semibold`}>{diff}</td>
            </tr>
          ))}
        </tbody>
      </ScrollingTable>
    </>
  );
}

function ScheduleTable({ rows, labelledBy, testId }: { rows: PaymentRow[]; labelledBy: string; testId: string }) {
  return (
    <ScrollingTable labelledBy={labelledBy} tableClassName="min-w-[40rem]" testId={testId}>
      <TableHead className="bg-muted/60" cellClassName={CELL} columns={["No.", "Due Date", ...["Payment", "Principal", "Interest", "Balance"].map((label) => ({ label, className: "text-right" }))]} />
      <tbody>
        {rows.map((row) => (
          <tr key={row.number} className="border-t">
            <td className={CELL}>{row.number}</td>
            <td className={CELL}>{formatAgreementDay(row.dueDate)}</td>
            <td className={`${CELL} text-right`}>{formatMoney(row.paymentCents)}</td>
            <td className={`${CELL} text-right`}>{formatMoney(row.principalCents)}</td>
            <td className={`${CELL} text-right`}>{formatMoney(row.interestCents)}</td>
            <td className={`${CELL} text-right`}>{formatMoney(row.balanceCents)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollingTable>
  );
}

function SignPlan({ data }: { data: PlanReviewPageData }) {
  const navigate = useNavigate();
  const [clientErrors, setClientErrors] = useState<FieldErrors | undefined>(undefined);
  const onAnswer = (answer: Answer) => {
    if (answer.ok && answer.redirectTo) void navigate(answer.redirectTo);
  };
  const sign = useFormFetcher<Answer>(undefined, onAnswer);
  const decline = useFormFetcher<Answer>(undefined, onAnswer);
  const action = `/dashboard/loans/${data.loanId}/hardship`;
  const errors = clientErrors ?? (sign.data && !sign.data.ok ? sign.data.fieldErrors : undefined);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const values = Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    const parsed = signPlanSchema.safeParse(values);
    if (!parsed.success) {
      event.preventDefault();
      setClientErrors(issuesToFieldErrors(parsed.error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setClientErrors(undefined);
  };
  return (
    <LoanSection titleId="plan-sign-heading" title="Sign Your Plan">
      <Card className="flex flex-col gap-4 p-5">
        <sign.fetcher.Form method="post" action={action} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" data-testid="plan-sign-form">
          <input type="hidden" name="intent" value="sign-plan" />
          <input type="hidden" name="modificationId" value={data.plan!.id} />
          <input type="hidden" name="scheduleDigest" value={data.digest ?? ""} />
          <InputField
            id="plan-typed-name"
            name="typedName"
            label="Full Name"
            hint={`Type your full name as you gave it: ${data.signerName}. Capitals, spaces and punctuation do not matter.`}
            autoComplete="name"
            maxLength={OFFER_LIMITS.typedSignatureMaxLength}
            errors={errors?.typedName}
          />
          <ConsentCheckbox id="plan-agree" name="agree" label={AGREE_TO_PLAN_LABEL} errors={errors?.agree} />
          <SubmitButton pending={sign.pending} label="Sign Plan" pendingLabel="Signing…" icon={PenLine} className="sm:w-auto sm:self-start" />
        </sign.fetcher.Form>
        <decline.fetcher.Form method="post" action={action} className="border-t pt-4">
          <input type="hidden" name="intent" value="decline-plan" />
          <input type="hidden" name="modificationId" value={data.plan!.id} />
          <p className="mb-3 text-sm text-muted-foreground">Not what you need? Decline the plan: your schedule stays as it is and we will contact you about other options.</p>
          <SubmitButton pending={decline.pending} label="Decline Plan" pendingLabel="Declining…" icon={XCircle} variant="outline" className="sm:w-auto" />
        </decline.fetcher.Form>
      </Card>
    </LoanSection>
  );
}
