import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadLedger } from "~/server/loans/index.server";
import { approvedLoans, loanOffers, signedAgreements } from "~/server/platform/db/schema.server";
import { seedLoan, seedOffer } from "../helpers/seed";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";

/**
 * The seeded offers and loans other tests start from are what the product makes: an open offer on the
 * approved application; a signed agreement and an active loan as late as asked on the given day; a
 * paid-off loan closed by its payoff.
 */

setUpTestConfig("seed-loans", { APP_SECRET: "l".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const TODAY = "2026-06-15";

describe("seeded offers and loans", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;

  it("seedOffer leaves an open offer of the approved terms on an approved application", async () => {
    const { application, offerId } = await seedOffer(db());
    const [offer] = await db().select().from(loanOffers).where(eq(loanOffers.id, offerId));
    expect(offer).toMatchObject({ applicationId: application.id, status: "offered", amountCents: 2_500_000, termMonths: 36 });
  });

  it.each([0, 1, 20, 75])("seedLoan({ daysLate: %i }) is signed and that many days past due on the day given", async (daysLate) => {
    const { loanId, application } = await seedLoan(db(), { today: TODAY, daysLate });
    const ledger = (await loadLedger(loanId, db(), TODAY))!;
    expect(ledger.state.daysPastDue).toBe(daysLate);
    expect(ledger.state.status).toBe(daysLate === 0 ? "current" : "late");
    expect(ledger.loan.status).toBe("active");
    expect(await db().select().from(signedAgreements).where(eq(signedAgreements.applicationId, application.id))).toHaveLength(1);
  });

  it("seedLoan({ paidOff: true }) is paid in full on the day given", async () => {
    const { loanId } = await seedLoan(db(), { today: TODAY, daysLate: 10, paidOff: true });
    const [loan] = await db().select().from(approvedLoans).where(eq(approvedLoans.id, loanId));
    expect(loan!.status).toBe("paid_off");
    expect((await loadLedger(loanId, db(), TODAY))!.state.status).toBe("paid_in_full");
  });
});
