import { and, asc, eq, gte, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { errorToast, type Toast } from "~/domain/action-result";
import { PROTECTION_KIND_LABELS, type ProtectionKind } from "~/domain/collections-enums";
import type { StayPeriod } from "~/domain/bankruptcy-stays";
import { todayUtc } from "~/domain/dates";
import { parseRateCaps, SCRA_RATE_CAP_MILLI, type RateCap } from "~/domain/loan-modifications";
import { replayLedger, type LedgerState, type LoanTerms, type PostedPayment, type AssessedFee } from "~/domain/loan-servicing";
import { formatMoney, formatRate } from "~/domain/money";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  BANKRUPTCY_OUTCOME_LABELS,
  PROTECTION_FAILED,
  PROTECTION_INTENTS,
  PROTECTION_MESSAGES,
  protectionIntentSchema,
  type EndProtectionForm,
  type ProtectionActionData,
  type ProtectionIntent,
  type RecordProtectionForm,
} from "~/domain/validation/loan-protections";
import type { ProtectionsPanelData } from "~/domain/views/charge-off";
import { peopleByIds } from "~/server/accounts/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, loanFees, loanProtections } from "~/server/platform/db/schema.server";
import { formTexts, readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { lockLoan, refreshLoan, termsOf, ledgerRows, type LoanRow } from "./ledger.server";
import { stopLoanDebits } from "./loan-debit-stops.server";

/**
 * Protected borrowers (docs/decisions/0103-protected-borrowers.md), recorded by staff on the loan page:
 * - An active-duty servicemember (SCRA): interest above 6 % is forgiven for the period of service, back
 *   to its start. Under the loan's row lock the protection row is written and, when the note rate is
 *   above 6 %, a rate cap {from: start, through: end or null, 6 %} is added to approved_loans.rate_caps,
 *   so every ledger replay accrues at most 6 % on those days (interest already paid above it is
 *   re-allocated to principal by the same replay). Ending service sets the cap's last day.
 * - A bankruptcy filing (automatic stay): autopay stops and unsent debits are cancelled at once; the
 *   servicing job sends no reminder or late notice while the stay is active and assesses no late fee
 *   on a day it covers, and collections skip the loan (they read activeProtections). Ending it (dismissed or discharged) is audited.
 * Both kinds stop collections contact while active. Every change is audited.
 */

export type ProtectionRow = typeof loanProtections.$inferSelect;
export type ActiveProtections = Partial<Record<ProtectionKind, ProtectionRow>>;

/** A protection in force on `today`: not ended, started, not past its end day (activeProtections' rule, in SQL there). */
function isInForce(row: Pick<ProtectionRow, "endedAt" | "startsOn" | "endsOn">, today: string): boolean {
  return row.endedAt === null && row.startsOn <= today && (row.endsOn === null || row.endsOn >= today);
}

/**
 * The protections in force on `today` for these loans (one batched read): recorded, not ended, started
 * on or before today and not past their end day. Loans without one are absent from the map.
 */
export async function activeProtections(loanIds: readonly string[], db: DbOrTx = getDb(), today: string = todayUtc()): Promise<Map<string, ActiveProtections>> {
  const out = new Map<string, ActiveProtections>();
  const ids = [...new Set(loanIds)];
  if (ids.length === 0) return out;
  const rows = await db
    .select()
    .from(loanProtections)
    .where(and(inArray(loanProtections.loanId, ids), isNull(loanProtections.endedAt), lte(loanProtections.startsOn, today), or(isNull(loanProtections.endsOn), gte(loanProtections.endsOn, today))));
  for (const row of rows) out.set(row.loanId, { ...out.get(row.loanId), [row.kind]: row });
  return out;
}

/**
 * The bankruptcy stays of these loans, from one batched read of every stay recorded on them: which
 * loans a stay protects today (the rule of activeProtections: recorded, not ended, started, not past
 * its end day; no reminders or late notices), and each loan's stay periods whatever their state today
 * (no late fee is assessed on a day one covers, also after it ended).
 */
export async function bankruptcyStaysOf(loanIds: readonly string[], db: DbOrTx = getDb(), today: string = todayUtc()): Promise<{ activeToday: Set<string>; periods: Map<string, StayPeriod[]> }> {
  const activeToday = new Set<string>();
  const periods = new Map<string, StayPeriod[]>();
  const ids = [...new Set(loanIds)];
  if (ids.length === 0) return { activeToday, periods };
  const rows = await db
    .select({ loanId: loanProtections.loanId, startsOn: loanProtections.startsOn, endsOn: loanProtections.endsOn, endedAt: loanProtections.endedAt })
    .from(loanProtections)
    .where(and(inArray(loanProtections.loanId, ids), eq(loanProtections.kind, "bankruptcy")));
  for (const row of rows) {
    periods.set(row.loanId, [...(periods.get(row.loanId) ?? []), { from: row.startsOn, through: row.endsOn }]);
    if (isInForce(row, today)) activeToday.add(row.loanId);
  }
  return { activeToday, periods };
}

const refuse = (status: number, message: string) => new AppError("protection", status, message);

/** A cap is the SCRA cap of a servicemember protection when it starts on the service's first day at 6 %. */
const isScraCapOf = (cap: RateCap, row: Pick<ProtectionRow, "startsOn">) => cap.from === row.startsOn && cap.rateMilli === SCRA_RATE_CAP_MILLI;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** Total interest a ledger charged to `asOf`: what payments paid as interest, and what is accrued and unpaid. */
function interestCharged(state: LedgerState): number {
  return state.allocations.reduce((sum, a) => sum + a.interestCents, 0) + state.interestAccruedCents;
}

/** The interest the rate caps removed to `asOf`: the ledger replayed without them, less the ledger with them. */
export function interestRemovedByCaps(terms: LoanTerms, payments: readonly PostedPayment[], fees: readonly AssessedFee[], asOf: string): number {
  if (!terms.rateCaps || terms.rateCaps.length === 0) return 0;
  const withCaps = replayLedger(terms, payments, fees, asOf);
  const without = replayLedger({ ...terms, rateCaps: [] }, payments, fees, asOf);
  return Math.max(0, interestCharged(without) - interestCharged(withCaps));
}

export type RecordProtectionResult = { protectionId: string; capAdded: boolean; interestRemovedCents: number; autopayStopped: boolean; debitsCancelled: number; feesWaivedCents: number };

/**
 * A stay recorded after its filing day: the fees already assessed on a day it covers were never owed
 * (the stay forbade adding to the debt from the filing on), so they are waived, each audited, and the
 * loan re-derived. The rows stay, marked, so the installment is never charged again.
 */
async function waiveFeesInStay(tx: DbOrTx, loan: LoanRow, stay: StayPeriod, caller: Caller, today: string): Promise<number> {
  const waived = await tx
    .update(loanFees)
    .set({ waivedAt: sql`now()`, waivedReason: "bankruptcy_stay" })
    .where(and(eq(loanFees.loanId, loan.id), isNull(loanFees.waivedAt), gte(loanFees.assessedOn, stay.from), stay.through === null ? undefined : lte(loanFees.assessedOn, stay.through)))
    .returning({ id: loanFees.id, kind: loanFees.kind, amountCents: loanFees.amountCents, assessedOn: loanFees.assessedOn, installmentNumber: loanFees.installmentNumber });
  for (const fee of waived) {
    await writeAudit(tx, {
      actor: caller.actor,
      action: "fee.waive",
      table: "loan_fees",
      recordId: fee.id,
      details: { loanId: loan.id, kind: fee.kind, amountCents: fee.amountCents, assessedOn: fee.assessedOn, installmentNumber: fee.installmentNumber, reason: "bankruptcy_stay" },
      request: caller.request,
    });
  }
  if (waived.length > 0) await refreshLoan(tx, loan, today);
  return waived.reduce((sum, fee) => sum + fee.amountCents, 0);
}

/** Record Protection: a servicemember (with the SCRA cap) or a bankruptcy filing (debits stopped), under the loan's lock. */
export async function recordProtection(loanId: string, input: Omit<RecordProtectionForm, "intent">, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<RecordProtectionResult> {
  try {
    return await db.transaction(async (tx) => {
      const loan = await lockLoan(tx, loanId);
      if (!loan) throw refuse(404, PROTECTION_MESSAGES.loanNotFound);
      if (loan.status !== "active" && loan.status !== "charged_off") throw refuse(409, PROTECTION_MESSAGES.notServiced);
      // A period already over when recorded (service that ended, a case already closed) is recorded as ended.
      const over = input.endsOn !== undefined && input.endsOn < today;
      const [row] = await tx
        .insert(loanProtections)
        .values({
          loanId,
          kind: input.kind,
          startsOn: input.startsOn,
          endsOn: input.endsOn ?? null,
          reference: input.reference,
          note: input.note || null,
          recordedBy: caller.actor.id,
          ...(over ? { endedAt: sql`now()`, endedBy: caller.actor.id } : {}),
        })
        .returning();
      let capAdded = false;
      let interestRemovedCents = 0;
      let stops = { autopayStopped: false, cancelled: 0 };
      if (input.kind === "servicemember" && loan.noteRateMilli > SCRA_RATE_CAP_MILLI) {
        const caps = [...parseRateCaps(loan.rateCaps), { from: input.startsOn, through: input.endsOn ?? null, rateMilli: SCRA_RATE_CAP_MILLI }];
        const [updated] = await tx.update(approvedLoans).set({ rateCaps: caps, updatedAt: sql`now()` }).where(eq(approvedLoans.id, loanId)).returning();
        await refreshLoan(tx, updated!, today);
        const rows = await ledgerRows(loanId, tx);
        interestRemovedCents = interestRemovedByCaps(termsOf(updated!), rows.payments, rows.fees, today);
        capAdded = true;
      }
      if (input.kind === "bankruptcy" && !over) {
        stops = await stopLoanDebits(tx, loan, { reason: "Collection is on hold while your bankruptcy case is open.", auditReason: "bankruptcy_stay" }, caller);
      }
      const feesWaivedCents = input.kind === "bankruptcy" ? await waiveFeesInStay(tx, loan, { from: input.startsOn, through: input.endsOn ?? null }, caller, today) : 0;
      await writeAudit(tx, {
        actor: caller.actor,
        action: "loan.protection_record",
        table: "loan_protections",
        recordId: row!.id,
        details: { loanId, kind: input.kind, startsOn: input.startsOn, endsOn: input.endsOn ?? null, reference: input.reference, ended: over, capAdded, interestRemovedCents, feesWaivedCents, ...stops },
        request: caller.request,
      });
      return { protectionId: row!.id, capAdded, interestRemovedCents, autopayStopped: stops.autopayStopped, debitsCancelled: stops.cancelled, feesWaivedCents };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse(409, PROTECTION_MESSAGES.alreadyActive);
    throw error;
  }
}

/** End Protection: the last day of active duty (the SCRA cap ends that day) or the day the case was dismissed or discharged. */
export async function endProtection(loanId: string, input: Omit<EndProtectionForm, "intent">, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<{ kind: ProtectionKind }> {
  return db.transaction(async (tx) => {
    const loan = await lockLoan(tx, loanId);
    if (!loan) throw refuse(404, PROTECTION_MESSAGES.loanNotFound);
    const [row] = await tx.select().from(loanProtections).where(and(eq(loanProtections.id, input.protectionId.toLowerCase()), eq(loanProtections.loanId, loanId))).limit(1);
    if (!row) throw refuse(404, PROTECTION_MESSAGES.protectionId);
    if (row.endedAt) throw refuse(409, PROTECTION_MESSAGES.alreadyEnded);
    if (input.endsOn < row.startsOn) throw refuse(400, PROTECTION_MESSAGES.endBeforeStart);
    if (input.endsOn > today) throw refuse(400, "The end day cannot be in the future: record it on or after that day.");
    if (row.kind === "bankruptcy" && !input.outcome) throw refuse(400, PROTECTION_MESSAGES.outcome);
    const outcome = row.kind === "bankruptcy" && input.outcome ? BANKRUPTCY_OUTCOME_LABELS[input.outcome] : null;
    const note = outcome ? [row.note, `Case ${outcome.toLowerCase()}.`].filter(Boolean).join("\n") : row.note;
    const [ended] = await tx
      .update(loanProtections)
      .set({ endsOn: input.endsOn, endedAt: sql`now()`, endedBy: caller.actor.id, note })
      .where(and(eq(loanProtections.id, row.id), isNull(loanProtections.endedAt)))
      .returning({ id: loanProtections.id });
    if (!ended) throw refuse(409, PROTECTION_MESSAGES.alreadyEnded);
    let capEnded = false;
    if (row.kind === "servicemember") {
      const caps = parseRateCaps(loan.rateCaps);
      const at = caps.findIndex((cap) => isScraCapOf(cap, row) && cap.through === (row.endsOn ?? null));
      if (at >= 0) {
        caps[at] = { ...caps[at]!, through: input.endsOn };
        const [updated] = await tx.update(approvedLoans).set({ rateCaps: caps, updatedAt: sql`now()` }).where(eq(approvedLoans.id, loanId)).returning();
        await refreshLoan(tx, updated!, today);
        capEnded = true;
      }
    }
    await writeAudit(tx, {
      actor: caller.actor,
      action: "loan.protection_end",
      table: "loan_protections",
      recordId: row.id,
      details: { loanId, kind: row.kind, endsOn: input.endsOn, outcome: input.outcome ?? null, capEnded },
      request: caller.request,
    });
    return { kind: row.kind };
  });
}

/** The Protections panel's data for the staff loan page. */
export async function protectionsPanel(loan: LoanRow, db: Db = getDb(), today: string = todayUtc()): Promise<ProtectionsPanelData> {
  const rows = await db.select().from(loanProtections).where(eq(loanProtections.loanId, loan.id)).orderBy(asc(loanProtections.recordedAt), asc(loanProtections.id));
  const people = await peopleByIds(rows.map((r) => r.recordedBy), db);
  const isActive = (r: ProtectionRow) => isInForce(r, today);
  const stayRow = rows.find((r) => r.kind === "bankruptcy" && isActive(r));
  const terms = termsOf(loan);
  const hasServicemember = rows.some((r) => r.kind === "servicemember");
  let scra: ProtectionsPanelData["scra"] = null;
  if (hasServicemember) {
    const ledger = await ledgerRows(loan.id, db);
    scra = {
      capRatePercent: formatRate(SCRA_RATE_CAP_MILLI),
      noteRatePercent: formatRate(loan.noteRateMilli),
      capApplies: loan.noteRateMilli > SCRA_RATE_CAP_MILLI,
      interestRemovedCents: interestRemovedByCaps(terms, ledger.payments, ledger.fees, today),
    };
  }
  return {
    protections: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      kindLabel: PROTECTION_KIND_LABELS[r.kind],
      startsOn: r.startsOn,
      endsOn: r.endsOn,
      reference: r.reference,
      note: r.note,
      recordedBy: (r.recordedBy && people.get(r.recordedBy)?.name) || "A former staff member",
      recordedAt: r.recordedAt.toISOString(),
      active: isActive(r),
      endedAt: r.endedAt?.toISOString() ?? null,
    })),
    stay: stayRow ? { startsOn: stayRow.startsOn, reference: stayRow.reference } : null,
    scra,
    recordable: loan.status === "active" || loan.status === "charged_off",
  };
}

// ---------------------------------------------------------------------------------------------
// POST /admin/loans/:id/protections
// ---------------------------------------------------------------------------------------------

export type ProtectionAnswer = ServiceAnswer<ProtectionActionData>;

function answer(status: number, intent: ProtectionIntent | null, toast: Toast, fieldErrors?: Record<string, string[]>): ProtectionAnswer {
  return { status, body: { ok: status < 300, intent, toast, at: Date.now(), ...(fieldErrors ? { fieldErrors } : {}) } };
}

const MAX_PROTECTION_FORM_BYTES = 16 * 1024;

/**
 * POST /admin/loans/:id/protections after the route's guard (collections.work): the size-limited form
 * (413), the intent's schema (400 naming the field), then the service; refusals (404, 409) become toasts.
 */
export async function protectionAction(request: Request, loanId: string | null, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<ProtectionAnswer> {
  const read = await readActionForm(request, (message): ProtectionActionData => ({ ok: false, intent: null, toast: errorToast("The request was refused", message), at: Date.now() }), {
    limitBytes: MAX_PROTECTION_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const values = formTexts(read.form);
  const schema = protectionIntentSchema(today)(values.intent);
  if (!schema || !(PROTECTION_INTENTS as readonly string[]).includes(values.intent ?? "")) return answer(400, null, errorToast("The request was refused", PROTECTION_MESSAGES.intent));
  const intent = values.intent as ProtectionIntent;
  if (!loanId) return answer(404, intent, errorToast(PROTECTION_FAILED[intent], PROTECTION_MESSAGES.loanNotFound));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors = issuesToFieldErrors(parsed.error);
    return answer(fieldErrors.protectionId ? 404 : 400, intent, errorToast(PROTECTION_FAILED[intent], parsed.error.issues[0]?.message ?? "Check the form and try again."), fieldErrors);
  }
  const input = parsed.data;
  try {
    if (input.intent === "record-protection") {
      const result = await recordProtection(loanId, input, caller, db, today);
      const parts = [input.kind === "servicemember" ? "Collections contact stops while service lasts." : "Collections, notices and autopay stop while the stay lasts."];
      if (result.capAdded) parts.push(`Interest above 6% is forgiven from ${input.startsOn}: ${formatMoney(result.interestRemovedCents)} removed so far.`);
      if (result.autopayStopped) parts.push("Autopay was stopped.");
      if (result.debitsCancelled > 0) parts.push(`${result.debitsCancelled} unsent debit(s) cancelled.`);
      if (result.feesWaivedCents > 0) parts.push(`Fees assessed during the stay waived: ${formatMoney(result.feesWaivedCents)}.`);
      return answer(200, intent, { type: "success", title: "Protection recorded", description: parts.join(" ") });
    }
    await endProtection(loanId, input, caller, db, today);
    return answer(200, intent, { type: "success", title: "Protection ended", description: "The end day is kept with the protection." });
  } catch (error) {
    if (error instanceof AppError) return answer(error.status, intent, errorToast(PROTECTION_FAILED[intent], error.message));
    logFailure("admin", "a protection action failed", error, { admin: caller.actor.id, loanId, intent });
    return answer(500, intent, errorToast(PROTECTION_FAILED[intent], "Something went wrong on our side. Please try again."));
  }
}
