import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ESIGN_CONSENT_VERSION } from "~/domain/esign-consent";
import { consentSchema, decodePngDataUrl, drawnSignatureProblem, OFFER_SIGNING_MESSAGES, signSchema } from "~/domain/validation/offer-signing";
import { todayUtc } from "~/domain/dates";
import { formatMoney, rateFromPercent } from "~/domain/money";
import { disclosure } from "~/domain/truth-in-lending";
import { typedNameMatches } from "~/domain/signer-names";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import {
  applicationEvents,
  approvedLoans,
  auditLog,
  emailOutbox,
  esignConsents,
  loanApplications,
  loanOffers,
  signedAgreements,
  user as userTable,
  type NewLoanApplication,
} from "~/server/platform/db/schema.server";
import { certificateForOffer } from "~/server/offers/offers.server";
import { giveConsent, currentConsent, withdrawConsent } from "~/server/offers/consent.server";
import { serveSignedAgreement } from "~/server/offers/agreement-file.server";
import { loadReviewAndSign, reviewAndSignAction } from "~/server/offers/review-and-sign.server";
import { renderSignedAgreementAgain, signOffer, SIGNING_MESSAGES } from "~/server/offers/sign-agreement.server";
import { GENERATED_SIGNING_FILE, lenderSigningIdentity, runAgreementVerify, verifyAgreementPdf } from "~/server/offers/agreement-seal.server";
import { getConfig } from "~/server/platform/config.server";
import { selfSignedIdentityPem, signingIdentity } from "~/server/platform/crypto/signing-identity.server";
import { signPdf } from "~/server/platform/crypto/pdf-signature.server";
import { disposeExpiredRecords } from "~/server/retention/disposal.server";
import { sweepOrphans } from "~/server/platform/storage/orphan-sweep.server";
import { referencedStorageKeys } from "~/server/retention/index.server";
import { BUCKET, createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { makePng } from "../helpers/files";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { appErrorOf } from "../helpers/rejection";
import { isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedOffer, seedStaff } from "../helpers/seed";

/**
 * E-SIGN consent and signing the loan agreement (issue 20) against PGlite: the consent's version,
 * time, IP and browser; signing makes the offer 'signed', stores the PDF privately, records its
 * certificate and the loan (Awaiting Funding) with its due dates, the audit row's SHA-256 is the stored file's,
 * the e-mail links and attaches nothing; refusals (twice, in parallel, expired, withdrawn, someone
 * else's, no consent); the orphan sweep and the retention disposal know the agreements.
 */

const dataDir = setUpTestConfig("offer-signing", { APP_SECRET: "o".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const DAY = 24 * 60 * 60 * 1000;
const UA = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 SigningTest";
const info = { ip: "203.0.113.77", userAgent: UA };

const pdfText = (bytes: Buffer, ...args: string[]) => {
  const file = path.join(dataDir, `check-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", [...args, file, "-"], { encoding: "utf8" });
};

const pdfPages = (file: string) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]);

async function readStored(storage: DocumentStorage, key: string): Promise<Buffer> {
  const stored = await storage.get(key);
  if (!stored) throw new Error(`missing ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("offer signing on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let storage: DocumentStorage;
  let admin: AuditActor;
  let n = 0;

  beforeAll(async () => {
    storage = createLocalStorage(path.join(dataDir, "storage"));
    await seedStaff(db(), { id: "sign-admin", name: "Ada Admin", email: "sign-admin@example.com", role: "admin" });
    admin = { id: "sign-admin", name: "Ada Admin", email: "sign-admin@example.com" };
  });

  async function newApplicant() {
    n += 1;
    const id = `sign-applicant-${n}`;
    const email = `sign.applicant${n}@example.com`;
    await seedApplicant(db(), { id, name: "Dana Whitfield", email, profile: { phone: "2125550100" } });
    return { id, name: "Dana Whitfield", email, isStaff: false };
  }

  /** An application approved with an offer (25,000 at 9.50 % for 36 months: the request, not a counteroffer). */
  async function offered(overrides: Partial<NewLoanApplication> = {}, at = new Date()) {
    const owner = await newApplicant();
    const { application, offerId } = await seedOffer(db(), { owner, admin, application: { firstName: "Dana", lastName: "Whitfield", email: `dana${n}@example.com`, ...overrides }, at });
    return { app: application, owner, offerId };
  }

  const sign = (applicationId: string, owner: { id: string; name: string; email: string; isStaff: boolean }, now = new Date()) =>
    signOffer(applicationId, { kind: "typed", name: "dana whitfield" }, { actor: owner, request: info }, { db: db(), storage, now });

  const refusal = (promise: Promise<unknown>) => appErrorOf(promise, "offer_action");

  describe("E-SIGN consent", () => {
    it("stores the version, time, IP and user agent, with a timeline event and an audit row; again changes nothing", async () => {
      const { app, owner } = await offered();
      const at = new Date("2026-11-24T12:00:00.000Z");
      const first = await giveConsent(app.id, { actor: owner, request: info }, db(), new Date(Math.max(at.getTime(), Date.now())));
      expect(first.created).toBe(true);
      const again = await giveConsent(app.id, { actor: owner, request: info }, db());
      expect(again.created).toBe(false);
      expect(again.consent.id).toBe(first.consent.id);
      const rows = await db().select().from(esignConsents).where(eq(esignConsents.applicationId, app.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ userId: owner.id, version: ESIGN_CONSENT_VERSION, ipAddress: info.ip, userAgent: UA, withdrawnAt: null });
      const events = await db().select().from(applicationEvents).where(eq(applicationEvents.applicationId, app.id));
      expect(events.filter((e) => e.kind === "esign_consented")).toHaveLength(1);
      const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "esign.consent"), eq(auditLog.recordId, first.consent.id)));
      expect(audits).toHaveLength(1);
      expect(audits[0]!.details).toMatchObject({ version: ESIGN_CONSENT_VERSION, ip: info.ip, userAgent: UA });
      expect(audits[0]).toMatchObject({ ipAddress: info.ip, userAgent: UA, actorId: owner.id });
    });

    it("two consents at once store one", async () => {
      const { app, owner } = await offered();
      await Promise.all([giveConsent(app.id, { actor: owner, request: info }, db()), giveConsent(app.id, { actor: owner, request: info }, db())]);
      expect(await db().select().from(esignConsents).where(eq(esignConsents.applicationId, app.id))).toHaveLength(1);
    });

    it("withdraws once (conditional), with its event and audit row; then consent can be given again", async () => {
      const { app, owner } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      await withdrawConsent(app.id, { actor: owner, request: info }, db());
      expect(await currentConsent(app.id, owner.id, db())).toBeNull();
      expect((await refusal(withdrawConsent(app.id, { actor: owner, request: info }, db()))).status).toBe(409);
      expect(await db().select().from(auditLog).where(eq(auditLog.action, "esign.withdraw"))).not.toHaveLength(0);
      const events = await db().select().from(applicationEvents).where(eq(applicationEvents.applicationId, app.id));
      expect(events.filter((e) => e.kind === "esign_withdrawn")).toHaveLength(1);
      await giveConsent(app.id, { actor: owner, request: info }, db());
      expect(await currentConsent(app.id, owner.id, db())).not.toBeNull();
    });

    it("someone else's application, staff and malformed ids are 404", async () => {
      const { app } = await offered();
      const stranger = await newApplicant();
      expect((await refusal(giveConsent(app.id, { actor: stranger, request: info }, db()))).status).toBe(404);
      expect((await refusal(giveConsent(app.id, { actor: { ...admin, isStaff: true }, request: info }, db()))).status).toBe(404);
      expect((await refusal(giveConsent("not-a-uuid", { actor: stranger, request: info }, db()))).status).toBe(404);
      expect((await refusal(withdrawConsent(app.id, { actor: stranger, request: info }, db()))).status).toBe(404);
    });
  });

  describe("signing", () => {
    it("signs: offer signed, agreement stored and recorded, loan awaiting funding with its due dates, audit hash = stored bytes, e-mail with a link only", async () => {
      const now = new Date("2030-01-31T10:00:00.000Z");
      const { app, owner, offerId } = await offered({}, new Date(now.getTime() - DAY));
      await giveConsent(app.id, { actor: owner, request: info }, db(), new Date(now.getTime() - 60_000));
      const result = await sign(app.id, owner, now);

      const [offer] = await db().select().from(loanOffers).where(eq(loanOffers.id, offerId));
      expect(offer).toMatchObject({ status: "signed" });
      expect(offer!.decidedAt?.toISOString()).toBe(now.toISOString());
      // Due dates count from the signing day and interest from the expected funding day (the first banking
      // day after signing), so the figures depend on the signing day: the offer made on January 30 stored
      // that day's; signing on Thursday January 31 with funding expected on Friday February 1 stores those
      // (what the PDF says and the ledger does).
      const onSigningDay = disclosure({ amountCents: 2_500_000, noteRateMilli: 9500, termMonths: 36, originationFeeMilli: 1000, signedOn: "2030-01-31", fundedOn: "2030-02-01" });
      const onOfferDay = disclosure({ amountCents: 2_500_000, noteRateMilli: 9500, termMonths: 36, originationFeeMilli: 1000, signedOn: "2030-01-30", fundedOn: "2030-01-31" });
      expect(onSigningDay.schedule.map((r) => r.interestCents)).not.toEqual(onOfferDay.schedule.map((r) => r.interestCents));
      const signedFigures = {
        finalPaymentCents: onSigningDay.schedule.at(-1)!.paymentCents,
        financeChargeCents: onSigningDay.financeChargeCents,
        totalOfPaymentsCents: onSigningDay.totalOfPaymentsCents,
        aprMilli: rateFromPercent(onSigningDay.aprPercent),
      };
      expect(offer).toMatchObject({ paymentCents: onSigningDay.paymentCents, ...signedFigures });

      const [agreement] = await db().select().from(signedAgreements).where(eq(signedAgreements.offerId, offerId));
      expect(agreement).toMatchObject({ applicationId: app.id, userId: owner.id, signerName: "dana whitfield", signerEmail: owner.email, signatureKind: "typed", ipAddress: info.ip, userAgent: UA, consentVersion: ESIGN_CONSENT_VERSION });
      // One month after signing: January 31 → February 28.
      expect(agreement!.firstPaymentDue).toBe("2030-02-28");
      expect(agreement!.storageKey).toMatch(new RegExp(`^agreements/${app.id}/agreement_[0-9a-f]{32}\\.pdf$`));

      const bytes = await readStored(storage, agreement!.storageKey);
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const fileHash = createHash("sha256").update(bytes).digest("hex");
      expect(agreement!.sha256).toBe(fileHash);
      expect(agreement!.byteSize).toBe(bytes.length);

      const [loan] = await db().select().from(approvedLoans).where(eq(approvedLoans.applicationId, app.id));
      // Signing opens the loan Awaiting Funding: it is active once the proceeds' credit settles.
      expect(loan).toMatchObject({
        status: "awaiting_funding",
        offerId,
        amountCents: 2_500_000,
        balanceCents: 2_500_000,
        paymentCents: offer!.paymentCents,
        noteRateMilli: 9500,
        termMonths: 36,
        startDate: "2030-01-31",
        expectedFundingDate: "2030-02-01",
        fundedOn: null,
        firstPaymentDue: "2030-02-28",
        maturityDate: "2033-01-31",
      });
      expect(result.loanId).toBe(loan!.id);

      const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "agreement.sign"), eq(auditLog.recordId, agreement!.id)));
      expect(audit!.details).toMatchObject({
        sha256: fileHash,
        offerId,
        loanId: loan!.id,
        finalPaymentCents: signedFigures.finalPaymentCents,
        financeChargeCents: signedFigures.financeChargeCents,
        totalOfPaymentsCents: signedFigures.totalOfPaymentsCents,
      });
      expect(audit).toMatchObject({ actorId: owner.id, ipAddress: info.ip });

      const events = await db().select().from(applicationEvents).where(eq(applicationEvents.applicationId, app.id));
      expect(events.filter((e) => e.kind === "agreement_signed")).toHaveLength(1);

      const mails = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, owner.email), eq(emailOutbox.template, "agreement-signed")));
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.textBody).toContain(`https://loans.example.com/dashboard/applications/${app.id}`);
      expect(`${mail.textBody}${mail.htmlBody}`).not.toMatch(/%PDF|attachment|base64/i);
      expect(mail.textBody).not.toContain(app.ssnEncrypted!);

      // The certificate staff see.
      const certificate = await certificateForOffer(offerId, db());
      // A typed signature names its signer as typed.
      expect(certificate).toMatchObject({ signerName: "dana whitfield", sha256: fileHash, consentVersion: ESIGN_CONSENT_VERSION, byteSize: bytes.length });

      // The PDF: borrower, APR, amounts, the certificate naming the lender's signing certificate.
      const text = pdfText(bytes);
      expect(text).toContain("Dana Whitfield");
      expect(text).toContain(`${(offer!.aprMilli / 1000).toFixed(2)}%`);
      expect(text).toContain("$25,000.00");
      expect(text).toContain("$24,750.00"); // amount financed (1 % fee)
      expect(text).toContain(formatMoney(signedFigures.finalPaymentCents));
      expect(text).toContain(formatMoney(signedFigures.financeChargeCents));
      expect(text).toContain(formatMoney(signedFigures.totalOfPaymentsCents));
      expect(text).toContain("Signing Certificate");
      expect(text).toContain(`Certificate SHA-256: ${result.signingCertificateSha256}`);
      expect(text).not.toContain("agreement pages");
      expect(text).toContain(info.ip);
      expect(text).toContain(ESIGN_CONSENT_VERSION);
    });

    it("the stored file is digitally signed by the lender: pdfsig and the verify command accept it, and refuse it after one byte changes", async () => {
      const now = new Date("2030-03-10T14:05:09.000Z");
      const { app, owner, offerId } = await offered({}, new Date(now.getTime() - DAY));
      await giveConsent(app.id, { actor: owner, request: info }, db(), new Date(now.getTime() - 60_000));
      const result = await signOffer(app.id, { kind: "typed", name: "  Dana   WHITFIELD " }, { actor: owner, request: info }, { db: db(), storage, now });
      const [agreement] = await db().select().from(signedAgreements).where(eq(signedAgreements.offerId, offerId));
      // What was signed, as typed; no image.
      expect(agreement).toMatchObject({ signatureTypedName: "Dana WHITFIELD", signaturePng: null, signingCertificateSha256: result.signingCertificateSha256 });
      const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "agreement.sign"), eq(auditLog.recordId, agreement!.id)));
      expect(audit!.details).toMatchObject({ signingCertificateSha256: result.signingCertificateSha256 });
      expect(audit!.details).not.toHaveProperty("agreementPagesSha256");

      // No certificate was configured: one was generated into the data folder's secrets, named after the lender.
      const generated = path.join(dataDir, "secrets", GENERATED_SIGNING_FILE);
      expect(fs.statSync(generated).mode & 0o777).toBe(0o600);
      const identity = lenderSigningIdentity();
      expect(identity.certificateSha256).toBe(result.signingCertificateSha256);
      expect(signingIdentity(fs.readFileSync(generated, "utf8"), fs.readFileSync(generated, "utf8")).certificateSha256).toBe(identity.certificateSha256);
      const openssl = execFileSync("openssl", ["x509", "-noout", "-subject", "-fingerprint", "-sha256", "-enddate", "-in", generated], { encoding: "utf8" });
      expect(openssl).toContain(`CN = ${identity.subject}`);
      // Valid for ten years from when it was made.
      expect(openssl).toMatch(new RegExp(`notAfter=.* ${new Date().getUTCFullYear() + 10} GMT`));
      expect(openssl.replace(/:/g, "").toLowerCase()).toContain(identity.certificateSha256);

      const bytes = await readStored(storage, agreement!.storageKey);
      const file = path.join(dataDir, `signed-${offerId}.pdf`);
      fs.writeFileSync(file, bytes);
      const pdfsig = execFileSync("pdfsig", [file], { encoding: "utf8" });
      expect(pdfsig).toContain("Signature Validation: Signature is Valid.");
      expect(pdfsig).toContain("Total document signed");
      expect(pdfsig).toContain(`Signer Certificate Common Name: ${identity.subject}`);
      expect(pdfsig).toContain("Signing Time: Mar 10 2030 14:05:09");

      const check = verifyAgreementPdf(bytes);
      expect(check).toMatchObject({ valid: true, signer: identity.subject, certificateSha256: identity.certificateSha256, expectedSigner: true, lenderKnown: true });
      expect(check.valid && check.signedAt?.toISOString()).toBe(now.toISOString());
      const lines: string[] = [];
      const io = { log: (l: string) => lines.push(`log ${l}`), error: (l: string) => lines.push(`error ${l}`) };
      expect(runAgreementVerify([file], io, getConfig())).toBe(0);
      expect(lines.at(-1)).toMatch(/^log .*: valid: signed by .* at 2030-03-10T14:05:09.000Z with the lender's certificate/);

      // The certificate page: the signer's evidence and the certificate that signed the file.
      const certificate = pdfText(bytes, "-f", String(pdfPages(file)));
      for (const value of ["Dana WHITFIELD", owner.email, "2030-03-10 14:05:09 UTC", info.ip, UA, ESIGN_CONSENT_VERSION, identity.subject, identity.certificateSha256]) {
        expect(certificate).toContain(value);
      }

      // The lender can render and sign it again from what is stored: the same bytes.
      const again = await renderSignedAgreementAgain(agreement!.id, db());
      expect(again && Buffer.compare(again, bytes)).toBe(0);

      // One byte changed inside the signed range (the first page's content): both refuse it.
      const changed = Buffer.from(bytes);
      const at = changed.indexOf("stream") + 20;
      changed[at] = changed[at]! ^ 0x01;
      const changedFile = path.join(dataDir, `changed-${offerId}.pdf`);
      fs.writeFileSync(changedFile, changed);
      const refused = execFileSync("pdfsig", [changedFile], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
      expect(refused).not.toContain("Signature is Valid");
      expect(refused).toContain("Signature Validation: Digest Mismatch.");
      expect(verifyAgreementPdf(changed)).toMatchObject({ valid: false, message: "the document was changed after signing" });
      expect(runAgreementVerify([changedFile], io, getConfig())).toBe(1);
      expect(lines.at(-1)).toContain("error");
      expect(lines.at(-1)).toContain("the document was changed after signing");

      // Bytes appended after signing (an incremental update) are outside the signature: refused too.
      expect(verifyAgreementPdf(Buffer.concat([bytes, Buffer.from("\n1 0 obj\n<<>>\nendobj\n")]))).toMatchObject({ valid: false, failure: "changed" });
      // A byte of the signature value itself changed: the signature does not verify.
      const contents = bytes.indexOf("/Contents <") + "/Contents <".length;
      const hex = bytes.toString("latin1", contents, bytes.indexOf(">", contents)).replace(/0+$/, "");
      const tampered = Buffer.from(bytes);
      const last = contents + hex.length - 4;
      tampered[last] = tampered[last] === 0x61 ? 0x62 : 0x61;
      expect(verifyAgreementPdf(tampered)).toMatchObject({ valid: false, failure: "notVerified", message: "the signature does not verify" });
      // The same file signed again by another certificate: a valid signature, not the lender's.
      const strangerPem = selfSignedIdentityPem(identity.subject);
      const unsigned = bytes.subarray(0, bytes.lastIndexOf("%%EOF", bytes.indexOf("/ByteRange")) + 5);
      const stranger = await signPdf(unsigned, signingIdentity(strangerPem, strangerPem), { reason: "x", name: "x", location: "x", contactInfo: "x", signingTime: now });
      expect(verifyAgreementPdf(stranger)).toMatchObject({ valid: false, failure: "otherSigner", message: "signed by a certificate other than the lender's" });
      // An unsigned PDF.
      expect(verifyAgreementPdf(unsigned)).toMatchObject({ valid: false, message: "no signature" });
      expect(runAgreementVerify([path.join(dataDir, "missing.pdf")], io, getConfig())).toBe(1);
    });

    it("signing twice is refused; two signs at once: exactly one succeeds and one file stays stored", async () => {
      const { app, owner } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      const results = await Promise.allSettled([sign(app.id, owner), sign(app.id, owner)]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!;
      expect(failed.reason).toSatisfy((e) => isAppError(e, "offer_action"));
      expect(failed.reason.message).toBe(SIGNING_MESSAGES.alreadySigned);
      expect(await db().select().from(approvedLoans).where(eq(approvedLoans.applicationId, app.id))).toHaveLength(1);
      expect(await storage.list(`agreements/${app.id}`)).toHaveLength(1);

      const third = await refusal(sign(app.id, owner));
      expect(third.status).toBe(409);
      expect(third.message).toBe(SIGNING_MESSAGES.alreadySigned);
    });

    it("an expired offer is refused (410) and nothing is stored", async () => {
      const { app, owner, offerId } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      await db()
        .update(loanOffers)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(loanOffers.id, offerId));
      const error = await refusal(sign(app.id, owner));
      expect(error.status).toBe(410);
      expect(error.message).toBe(SIGNING_MESSAGES.expired);
      expect(await storage.list(`agreements/${app.id}`)).toHaveLength(0);
      expect(await db().select().from(approvedLoans).where(eq(approvedLoans.applicationId, app.id))).toHaveLength(0);
    });

    it("a withdrawn offer is refused (410)", async () => {
      const { app, owner, offerId } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      await db()
        .update(loanOffers)
        .set({ status: "withdrawn", decidedAt: new Date(), withdrawReason: "Terms changed" })
        .where(eq(loanOffers.id, offerId));
      const error = await refusal(sign(app.id, owner));
      expect(error.status).toBe(410);
      expect(error.message).toBe(SIGNING_MESSAGES.withdrawn);
    });

    it("someone else's offer is 404; staff too", async () => {
      const { app, owner } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      const stranger = await newApplicant();
      expect((await refusal(sign(app.id, stranger))).status).toBe(404);
      expect((await refusal(sign(app.id, { ...admin, isStaff: true }))).status).toBe(404);
      expect((await db().select().from(loanOffers).where(eq(loanOffers.applicationId, app.id)))[0]!.status).toBe("offered");
    });

    it("without a current consent (never given, or withdrawn) signing is refused", async () => {
      const { app, owner } = await offered();
      const none = await refusal(sign(app.id, owner));
      expect(none.status).toBe(409);
      expect(none.message).toBe(SIGNING_MESSAGES.noConsent);
      await giveConsent(app.id, { actor: owner, request: info }, db());
      await withdrawConsent(app.id, { actor: owner, request: info }, db());
      expect((await refusal(sign(app.id, owner))).message).toBe(SIGNING_MESSAGES.noConsent);
    });

    it("a typed name that is not the applicant's is refused (400); a drawn PNG signs", async () => {
      const { app, owner } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      const wrong = await refusal(signOffer(app.id, { kind: "typed", name: "Someone Else" }, { actor: owner, request: info }, { db: db(), storage }));
      expect(wrong.status).toBe(400);
      const result = await signOffer(app.id, { kind: "drawn", png: makePng(60, 20) }, { actor: owner, request: info }, { db: db(), storage });
      const [agreement] = await db().select().from(signedAgreements).where(eq(signedAgreements.offerId, result.offerId));
      expect(agreement!.signatureKind).toBe("drawn");
      // What was signed is kept with the agreement: the drawn image, byte for byte.
      expect(agreement!.signaturePng?.equals(Buffer.from(makePng(60, 20)))).toBe(true);
      expect(agreement!.signatureTypedName).toBeNull();
      const again = await renderSignedAgreementAgain(agreement!.id, db());
      expect(again && Buffer.compare(again, await readStored(storage, agreement!.storageKey))).toBe(0);
      // A drawn signature's signer is named as the application names them.
      expect(agreement!.signerName).toBe("Dana Whitfield");
    });

    it("the full name given at sign-up signs, in any case, and the agreement prints it as typed; the refusal names it", async () => {
      const { app, owner } = await offered({ firstName: "Dana", middleInitial: "M", lastName: "Whitfield" });
      await db().update(userTable).set({ name: "Dana Marie Whitfield" }).where(eq(userTable.id, owner.id));
      await giveConsent(app.id, { actor: owner, request: info }, db());
      const page = await loadReviewAndSign(app.id, owner, db());
      expect(page?.signerName).toBe("Dana Marie Whitfield");
      const wrong = await refusal(signOffer(app.id, { kind: "typed", name: "Dana Maria Whitfield" }, { actor: owner, request: info }, { db: db(), storage }));
      expect(wrong.status).toBe(400);
      expect(wrong.message).toBe("Type your full name as you gave it when you signed up or applied: Dana Marie Whitfield.");
      const result = await signOffer(app.id, { kind: "typed", name: "  dana   marie whitfield " }, { actor: owner, request: info }, { db: db(), storage });
      const [agreement] = await db().select().from(signedAgreements).where(eq(signedAgreements.offerId, result.offerId));
      expect(agreement!.signerName).toBe("dana marie whitfield");
      const text = pdfText(await readStored(storage, result.storageKey));
      expect(text).toContain("dana marie whitfield");
      expect(text).toContain("Borrower: dana marie whitfield");
    });
  });

  describe("the page's loader and action", () => {
    const post = (fields: Record<string, string>) => new Request("http://localhost/dashboard/applications/x/offer", { method: "POST", body: new URLSearchParams(fields) });

    it("shows the consent first, then the agreement; the sign intent redirects; the signed page says so", async () => {
      const { app, owner } = await offered();
      expect((await loadReviewAndSign(app.id, owner, db()))!.state).toBe("consent");
      expect((await loadReviewAndSign(app.id, owner, db()))!.agreement).toBeNull();
      const refused = await reviewAndSignAction(post({ intent: "consent" }), app.id, { actor: owner, request: info }, db());
      expect("status" in refused && refused.status).toBe(400);
      const agreed = await reviewAndSignAction(post({ intent: "consent", agree: "on" }), app.id, { actor: owner, request: info }, db());
      expect("status" in agreed && agreed.status).toBe(200);
      const page = (await loadReviewAndSign(app.id, owner, db()))!;
      expect(page.state).toBe("sign");
      expect(page.agreement!.schedule).toHaveLength(36);
      expect(page.agreement!.borrower.name).toBe("Dana Whitfield");

      // The page computed its figures for today, and says so in the form.
      const today = page.agreement!.signedOn;
      expect(today).toBe(todayUtc());
      expect(page.agreement!.figures.finalPaymentCents).toBe(page.agreement!.schedule.at(-1)!.paymentCents);

      const noAgree = await reviewAndSignAction(post({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", signedOn: today }), app.id, { actor: owner, request: info }, db());
      expect("status" in noAgree && noAgree.status).toBe(400);
      // A form without the page's day is refused (400); a page opened before midnight UTC is a 409 that
      // says why, never a 500, and nothing is signed.
      const noDay = await reviewAndSignAction(post({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", agree: "on" }), app.id, { actor: owner, request: info }, db());
      expect(noDay).toMatchObject({ status: 400, body: { toast: { description: OFFER_SIGNING_MESSAGES.signingDayMissing } } });
      const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
      const stale = await reviewAndSignAction(post({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", agree: "on", signedOn: yesterday }), app.id, { actor: owner, request: info }, db());
      expect(stale).toMatchObject({ status: 409, body: { toast: { description: "This agreement was updated for today's date. Review it again and sign." } } });
      expect((await loadReviewAndSign(app.id, owner, db()))!.state).toBe("sign");
      expect(await storage.list(`agreements/${app.id}`)).toHaveLength(0);

      const signed = await reviewAndSignAction(post({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", agree: "on", signedOn: today }), app.id, { actor: owner, request: info }, db());
      expect(signed).toMatchObject({ redirect: `/dashboard/applications/${app.id}`, toast: { title: "Loan agreement signed" } });
      expect((await loadReviewAndSign(app.id, owner, db()))!.state).toBe("signed");
    });

    it("refuses bad input with 400, an oversized body with 413, another's application with 404", async () => {
      const { app, owner } = await offered();
      const stranger = await newApplicant();
      const other = await reviewAndSignAction(post({ intent: "consent", agree: "on" }), app.id, { actor: stranger, request: info }, db());
      expect("status" in other && other.status).toBe(404);
      const control = await reviewAndSignAction(post({ intent: "sign", signatureKind: "typed", typedName: "Dana\u0000Whitfield", agree: "on", signedOn: todayUtc() }), app.id, { actor: owner, request: info }, db());
      expect("status" in control && control.status).toBe(400);
      const controlDay = await reviewAndSignAction(post({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", agree: "on", signedOn: `${todayUtc()}\u0000` }), app.id, { actor: owner, request: info }, db());
      expect("status" in controlDay && controlDay.status).toBe(400);
      expect("status" in control && control.status).toBe(400);
      const badPng = await reviewAndSignAction(post({ intent: "sign", signatureKind: "drawn", signaturePng: "data:image/png;base64,AAAA", agree: "on" }), app.id, { actor: owner, request: info }, db());
      expect("status" in badPng && badPng.status).toBe(400);
      const unknown = await reviewAndSignAction(post({ intent: "explode" }), app.id, { actor: owner, request: info }, db());
      expect("status" in unknown && unknown.status).toBe(400);
      const big = await reviewAndSignAction(post({ intent: "sign", signatureKind: "drawn", signaturePng: `data:image/png;base64,${"A".repeat(1_200_000)}` }), app.id, { actor: owner, request: info }, db());
      expect("status" in big && big.status).toBe(413);
    });
  });

  describe("downloads", () => {
    it("the owner and staff download the PDF (attachment, no-store), each audited; others get 404", async () => {
      const { app, owner } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      await sign(app.id, owner);
      const mine = await serveSignedAgreement(app.id, { actor: { side: "applicant", viewer: owner }, request: info }, { db: db(), storage });
      expect(mine.status).toBe(200);
      expect(mine.headers.get("content-type")).toBe("application/pdf");
      expect(mine.headers.get("content-disposition")).toMatch(/^attachment; filename="loan-agreement-ln-[0-9a-f]{8}\.pdf"$/);
      expect(mine.headers.get("cache-control")).toBe("no-store, private");
      expect(Buffer.from(await mine.arrayBuffer()).subarray(0, 4).toString("latin1")).toBe("%PDF");
      const staff = await serveSignedAgreement(app.id, { actor: { side: "staff", admin }, request: info }, { db: db(), storage });
      expect(staff.status).toBe(200);
      await staff.body?.cancel();
      const stranger = await newApplicant();
      expect((await serveSignedAgreement(app.id, { actor: { side: "applicant", viewer: stranger }, request: info }, { db: db(), storage })).status).toBe(404);
      expect((await serveSignedAgreement(app.id, { actor: { side: "applicant", viewer: { ...admin, isStaff: true } }, request: info }, { db: db(), storage })).status).toBe(404);
      const downloads = await db().select().from(auditLog).where(eq(auditLog.action, "agreement.download"));
      expect(downloads.filter((d) => (d.details as { applicationId?: string }).applicationId === app.id).map((d) => d.actorId).sort()).toEqual([admin.id, owner.id].sort());
    });
  });

  describe("storage housekeeping", () => {
    it("the orphan sweep keeps agreement objects and removes unnamed ones under agreements/", async () => {
      const { app, owner } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      const { storageKey } = await sign(app.id, owner);
      const stray = `agreements/${app.id}/agreement_${"0".repeat(32)}.pdf`;
      await storage.put(stray, Buffer.from("%PDF-1.7 stray"), "application/pdf");
      const result = await sweepOrphans({ db: db(), storage, olderThan: new Date(Date.now() + 60_000), reason: "test", referenced: referencedStorageKeys });
      expect(result.removed).toContain(stray);
      expect(result.removed).not.toContain(storageKey);
      expect(await storage.exists(storageKey)).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "storage", BUCKET, storageKey))).toBe(true);
    });

    it("the retention disposal removes a closed loan's agreement object with its application", async () => {
      const { app, owner } = await offered();
      await giveConsent(app.id, { actor: owner, request: info }, db());
      const { storageKey } = await sign(app.id, owner);
      const longAgo = new Date(Date.now() - 20 * 365 * DAY);
      await db().update(approvedLoans).set({ status: "closed", updatedAt: longAgo }).where(eq(approvedLoans.applicationId, app.id));
      const result = await disposeExpiredRecords({ db: db(), storage, now: new Date() });
      expect(result.files).toContain(storageKey);
      expect(result.counts.agreements).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(storageKey)).toBe(false);
      expect(await db().select().from(loanApplications).where(eq(loanApplications.id, app.id))).toHaveLength(0);
      expect(await db().select().from(signedAgreements).where(eq(signedAgreements.applicationId, app.id))).toHaveLength(0);
    });
  });
});

describe("offer signing schemas", () => {
  it("consent needs the box; sign needs a kind, a signature and the box", () => {
    expect(consentSchema.safeParse({ intent: "consent" }).success).toBe(false);
    expect(consentSchema.safeParse({ intent: "consent", agree: "on" }).success).toBe(true);
    const signedOn = "2026-12-05";
    expect(signSchema.safeParse({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", agree: "on", signedOn }).success).toBe(true);
    expect(signSchema.safeParse({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", agree: "on" }).success).toBe(false);
    expect(signSchema.safeParse({ intent: "sign", signatureKind: "typed", typedName: "Dana Whitfield", agree: "on", signedOn: "5 Dec 2026" }).success).toBe(false);
    expect(signSchema.safeParse({ intent: "sign", signatureKind: "typed", typedName: "D", agree: "on", signedOn }).success).toBe(false);
    expect(signSchema.safeParse({ intent: "sign", signatureKind: "typed", typedName: "Dana\tWhitfield", agree: "on", signedOn }).success).toBe(false);
    expect(signSchema.safeParse({ intent: "sign", signatureKind: "ink", agree: "on" }).success).toBe(false);
    const png = `data:image/png;base64,${makePng(40, 10).toString("base64")}`;
    expect(decodePngDataUrl(png)).not.toBeNull();
    expect(drawnSignatureProblem(png)).toBeNull();
    expect(drawnSignatureProblem("data:image/png;base64,PHN2Zz4=")).not.toBeNull();
    expect(drawnSignatureProblem(`data:image/jpeg;base64,${makePng().toString("base64")}`)).not.toBeNull();
    expect(signSchema.safeParse({ intent: "sign", signatureKind: "drawn", signaturePng: png, agree: "on", signedOn }).success).toBe(true);
  });

  it("a typed name matches the application's, ignoring case, spaces, periods and the middle initial", () => {
    const name = { accountName: "", firstName: "Dana", middleInitial: "Q", lastName: "Whitfield" };
    expect(typedNameMatches("dana whitfield", name)).toBe(true);
    expect(typedNameMatches("Dana Q. Whitfield", name)).toBe(true);
    expect(typedNameMatches("  DANA   q whitfield ", name)).toBe(true);
    expect(typedNameMatches("Dan Whitfield", name)).toBe(false);
  });
});
