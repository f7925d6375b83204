import { and, eq } from "drizzle-orm";
import { addDays, todayUtc } from "~/domain/dates";
import type { AuditActor, RequestInfo } from "~/server/platform/audit/audit.server";
import type { Db } from "~/server/platform/db/client.server";
import { approvedLoans, loanApplications, paymentPromises, user as userTable } from "~/server/platform/db/schema.server";
import { breakPromises, chargeOffLoan, offerPlan, promiseToPay, recordPayment, recordProtection, requestHelp, signPlan } from "~/server/loans/index.server";
import type { DemoApplication } from "./data";

/**
 * What collections did with the demo's late loans, through the product's own functions (each writes
 * its audit rows, timeline events and e-mails as staff and borrowers would):
 * - broken_promise: ten days ago the borrower promised to pay by three days ago, paid nothing, and the
 *   servicing job's pass the day after the promised day broke it (a flag on the loan);
 * - payment_plan: the borrower asked for help, staff offered a three-month Payment Plan, the borrower
 *   signed it (a sealed PDF), and the loan is serviced by the new schedule;
 * - servicemember: staff recorded active duty from forty days ago: the SCRA 6 % cap applies back to then;
 * - charged_off: charged off twenty days ago with a reason, then a recovery payment posted after it.
 * Once per database: a loan that already has its story is left alone. Returns the stories told.
 */
export async function seedDemoLateLoans(db: Db, actor: AuditActor, request: RequestInfo, apps: readonly DemoApplication[]): Promise<number> {
  let told = 0;
  const staff = { actor, request };
  for (const app of apps) {
    if (!app.lateLoanStory) continue;
    const [loan] = await db
      .select({ id: approvedLoans.id, userId: approvedLoans.userId, status: approvedLoans.status, rateCaps: approvedLoans.rateCaps, scheduleChanges: approvedLoans.scheduleChanges, paymentCents: approvedLoans.paymentCents })
      .from(approvedLoans)
      .innerJoin(loanApplications, eq(loanApplications.id, approvedLoans.applicationId))
      .where(eq(loanApplications.idempotencyKey, app.key))
      .limit(1);
    if (!loan || loan.status !== "active") continue;
    const today = todayUtc();
    switch (app.lateLoanStory) {
      case "broken_promise": {
        const [already] = await db.select({ id: paymentPromises.id }).from(paymentPromises).where(eq(paymentPromises.loanId, loan.id)).limit(1);
        if (already) continue;
        const madeOn = addDays(today, -10);
        const id = await promiseToPay(loan.id, { intent: "promise-to-pay", amount: loan.paymentCents, promisedOn: addDays(today, -3) }, staff, db, madeOn);
        await db.update(paymentPromises).set({ createdAt: new Date(`${madeOn}T16:00:00Z`) }).where(eq(paymentPromises.id, id));
        await breakPromises(db, addDays(today, -2));
        break;
      }
      case "servicemember":
        if (Array.isArray(loan.rateCaps) && loan.rateCaps.length > 0) continue;
        await recordProtection(loan.id, { kind: "servicemember", startsOn: addDays(today, -40), reference: "Orders DA-2026-118734 (Army Reserve, called to active duty)", note: "Copy of the orders received by e-mail and checked against the DMDC SCRA website." }, staff, db, today);
        break;
      case "payment_plan": {
        if (Array.isArray(loan.scheduleChanges) && loan.scheduleChanges.length > 0) continue;
        const [borrower] = await db.select({ id: userTable.id, name: userTable.name, email: userTable.email }).from(userTable).where(eq(userTable.id, loan.userId)).limit(1);
        if (!borrower) continue;
        const viewer = { actor: { ...borrower, isStaff: false }, request };
        await requestHelp(loan.id, { intent: "request-help", reason: "medical", details: "I was in hospital for two weeks and lost a month of shifts. I can pay part of the payment until I am back on full hours.", canPay: Math.round(loan.paymentCents / 2) }, viewer, db, today);
        const { modification, preview } = await offerPlan(loan.id, { kind: "payment_plan", months: 3, reducedPaymentCents: Math.round(loan.paymentCents / 2) }, "Three reduced months while she returns to full hours.", staff, db, today);
        await signPlan(loan.id, { modificationId: modification.id, scheduleDigest: preview.digest, typedName: borrower.name }, viewer, { db });
        break;
      }
      case "charged_off": {
        const chargedOn = addDays(today, -20);
        await chargeOffLoan(loan.id, "200 days past due with no payment since funding; no contact after repeated calls and letters.", staff, db, chargedOn);
        const [after] = await db.select({ status: approvedLoans.status }).from(approvedLoans).where(and(eq(approvedLoans.id, loan.id), eq(approvedLoans.status, "charged_off")));
        if (!after) continue;
        await recordPayment(loan.id, { amountCents: 15_000, receivedOn: addDays(today, -5), method: "check", reference: "DEMO-RECOVERY-1" }, staff, db, today);
        break;
      }
    }
    told += 1;
  }
  return told;
}
