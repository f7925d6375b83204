import { errorToast, type Toast } from "~/domain/action-result";
import { formatMoney } from "~/domain/money";
import { formatDay } from "~/domain/formats";
import { autopaySchema, type AutopayActionData, type AutopayIntent } from "~/domain/validation/autopay";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { AppError } from "~/server/platform/http/app-error.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { cancelAutopay, changeAutopay, setUpAutopay, type AutopayResult } from "./autopay.server";
import type { LoanViewer } from "./borrower-loan.server";

/** The loan page's answer to setup-autopay, change-autopay and cancel-autopay (the loan already checked as the viewer's). */

export type AutopayAnswer = ServiceAnswer<AutopayActionData>;

const TITLES: Record<AutopayIntent, { ok: string; failed: string }> = {
  "setup-autopay": { ok: "Autopay is on", failed: "Autopay not set up" },
  "change-autopay": { ok: "Autopay changed", failed: "Autopay not changed" },
  "cancel-autopay": { ok: "Autopay is off", failed: "Autopay not cancelled" },
};

function answer(status: number, intent: AutopayIntent | null, toast: Toast, extra: Partial<AutopayActionData> = {}): AutopayAnswer {
  return { status, body: { ok: status < 300, intent, toast, at: Date.now(), ...extra } };
}

function describe(intent: AutopayIntent, result: AutopayResult): string {
  const parts: string[] = [];
  if (intent !== "cancel-autopay" && result.next) parts.push(`The next debit is ${formatMoney(result.next.amountCents)} on ${formatDay(result.next.on)} from ${result.account}.`);
  parts.push(...result.notes);
  parts.push(intent === "cancel-autopay" ? "We e-mailed you a confirmation." : "We e-mailed you a copy of your authorization.");
  return parts.join(" ");
}

const FIELDS: Record<string, string> = { bankAccountId: "bankAccountId", fixedAmount: "fixedAmount" };

export async function autopayAnswer(loanId: string, values: Record<string, string>, caller: Caller<LoanViewer>, db: Db = getDb()): Promise<AutopayAnswer> {
  const intent = values.intent as AutopayIntent;
  const parsed = autopaySchema.safeParse(values);
  if (!parsed.success) return answer(400, intent, errorToast(TITLES[intent].failed, parsed.error.issues[0]?.message ?? "Check the form and try again."), { fieldErrors: issuesToFieldErrors(parsed.error) });
  const input = parsed.data;
  try {
    const result =
      input.intent === "cancel-autopay" ? await cancelAutopay(loanId, caller, db) : input.intent === "setup-autopay" ? await setUpAutopay(loanId, input, caller, db) : await changeAutopay(loanId, input, caller, db);
    return answer(200, intent, { type: "success", title: TITLES[intent].ok, description: describe(intent, result) });
  } catch (error) {
    if (error instanceof AppError) {
      const field = error.message.startsWith("A fixed amount") ? FIELDS.fixedAmount : error.message.includes("bank account") ? FIELDS.bankAccountId : null;
      return answer(error.status, intent, errorToast(TITLES[intent].failed, error.message), field ? { fieldErrors: { [field]: [error.message] } } : {});
    }
    logFailure("borrower", "autopay action failed", error, { user: caller.actor.id, loanId });
    return answer(500, intent, errorToast(TITLES[intent].failed, "Something went wrong on our side. Please try again."));
  }
}
