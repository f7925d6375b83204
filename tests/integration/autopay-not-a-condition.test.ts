import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { approvedLoans, autopayAuthorizations, signedAgreements } from "~/server/platform/db/schema.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { seedLoan, seedStaff } from "../helpers/seed";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";

/**
 * Autopay is never a condition of the loan (Reg E 12 CFR 1005.10(e)): a loan is offered, signed and
 * funded with no autopay, and neither the offer's and agreement's text sources nor the signed
 * agreement's PDF (read back with pdftotext) mention autopay or require automatic payments.
 */

const dataDir = setUpTestConfig("autopay-not-a-condition", { APP_SECRET: "n".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const REQUIRES_AUTOPAY = /autopay|auto-pay|automatic (payment|debit)|preauthori[sz]ed (transfer|debit)|recurring (ach|debit)/i;

describe("autopay is never a condition of the loan", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;

  it("a loan is signed and funded without autopay, and its signed agreement never mentions it", async () => {
    const storage = createLocalStorage(path.join(dataDir, "storage"));
    const admin = await seedStaff(db(), { id: "nac-admin", name: "Ada Admin", email: "nac-admin@example.com", role: "admin" });
    const loan = await seedLoan(db(), { admin, storage });
    const [row] = await db().select({ status: approvedLoans.status }).from(approvedLoans).where(eq(approvedLoans.id, loan.loanId));
    expect(row!.status).toBe("active");
    expect(await db().select().from(autopayAuthorizations).where(eq(autopayAuthorizations.loanId, loan.loanId))).toHaveLength(0);

    const [agreement] = await db().select({ key: signedAgreements.storageKey }).from(signedAgreements).where(eq(signedAgreements.applicationId, loan.application.id));
    const stored = await storage.get(agreement!.key);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    const file = path.join(dataDir, "agreement.pdf");
    fs.writeFileSync(file, Buffer.concat(chunks));
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
    expect(text.length).toBeGreaterThan(500);
    expect(text).not.toMatch(REQUIRES_AUTOPAY);
  });

  it("the offer's and the agreement's text sources never mention autopay", () => {
    for (const source of ["app/domain/agreement-terms-text.ts", "app/domain/loan-offers.ts", "app/domain/truth-in-lending.ts", "app/server/offers/agreement-document.server.ts", "app/server/offers/agreement-pdf.server.ts", "app/server/offers/offer-emails.server.ts"]) {
      expect(fs.readFileSync(path.join(process.cwd(), source), "utf8"), source).not.toMatch(REQUIRES_AUTOPAY);
    }
  });
});
