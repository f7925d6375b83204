import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { percentOf } from "~/domain/money";
import { giveConsent, signOffer } from "~/server/offers/index.server";
import { getConfig, setConfig } from "~/server/platform/config.server";
import { approvedLoans, loanOffers } from "~/server/platform/db/schema.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { seedOffer } from "../helpers/seed";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";

/**
 * Interest accrues by the day, so an offer's APR moves a little with the day it is signed. The cap on
 * the APR (MAX_APR) holds on the signing day too: an agreement whose APR would be above it on that day
 * is refused with a 409 that says why, and nothing is signed.
 */

const dataDir = setUpTestConfig("apr-cap-signing", { APP_SECRET: "c".repeat(48), PUBLIC_URL: "https://loans.example.com" });

describe("the APR cap on the signing day, on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;

  it("refuses to sign an agreement whose APR that day is above the cap, and signs it once the cap allows", async () => {
    const made = new Date(Date.now() - 60 * 60 * 1000);
    const offer = await seedOffer(db(), { at: made });
    const [row] = await db().select({ aprMilli: loanOffers.aprMilli }).from(loanOffers).where(eq(loanOffers.id, offer.offerId));
    await giveConsent(offer.application.id, { actor: offer.owner, request: {} }, db(), new Date(Date.now() - 60_000));
    const storage = createLocalStorage(path.join(dataDir, "storage"));
    const sign = () => signOffer(offer.application.id, { kind: "typed", name: `${offer.application.firstName} ${offer.application.lastName}` }, { actor: offer.owner, request: {} }, { db: db(), storage });

    const settings = getConfig();
    try {
      // The cap is lowered under this offer's APR (as the day's figures could have risen above it).
      setConfig({ ...settings, maxAprPercent: percentOf(row!.aprMilli) - 0.5 });
      const refusal = await sign().then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(AppError);
      expect((refusal as AppError).status).toBe(409);
      expect((refusal as AppError).message).toMatch(/^Signed today, these terms would carry an APR of \d+\.\d\d%, above the \d+\.\d\d% we offer at most, so this offer cannot be signed\./);
      expect(await db().select().from(approvedLoans).where(eq(approvedLoans.applicationId, offer.application.id))).toEqual([]);
      const [still] = await db().select({ status: loanOffers.status }).from(loanOffers).where(eq(loanOffers.id, offer.offerId));
      expect(still!.status).toBe("offered");
    } finally {
      setConfig(settings);
    }
    const signed = await sign();
    expect(signed.loanId).toBeTruthy();
  });
});
