import path from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addMonths, closeAccount, loadClosureView } from "~/server/accounts/account-closure.server";
import { accountDataAction } from "~/server/accounts/data.server";
import { withdrawApplication } from "~/server/applications/withdraw-application.server";
import {
  applicationDrafts,
  auditLog,
  dataExports,
  emailOutbox,
  loanApplications,
  notificationPreferences,
  passkeys,
  profiles,
  session,
  user as userTable,
} from "~/server/platform/db/schema.server";
import { disposeExpiredRecords } from "~/server/retention/disposal.server";
import { approveApplication } from "~/server/applications/reviews.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { applicationRow } from "../helpers/application-rows";
import { rejectionOf } from "../helpers/rejection";
import { activeLoan, servicingAdmin } from "../helpers/servicing-loans";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { AppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedPassword } from "../helpers/seed";

/**
 * Close My Account (issue 23): the password, the refusals (active loan, open offer, an application
 * under consideration, already closed),
 * what goes at once and what stays, the audit row and the e-mail, then retention removing the
 * account once nothing the law keeps points at it.
 */

const dataDir = setUpTestConfig("account-closure", { APP_SECRET: "c".repeat(48), PUBLIC_URL: "https://loans.example.com" });
let getDb: ReturnType<typeof useTestDatabase>;
const PASSWORD = "Str0ng!Passw0rd";
let n = 0;

async function applicant(withApplication = true) {
  const db = getDb().db;
  n += 1;
  const id = `closer-${n}`;
  const email = `closer${n}@example.com`;
  await seedApplicant(db, { id, name: "Casey Closer", email, profile: true, password: PASSWORD });
  const expires = new Date(Date.now() + 3600_000);
  await db.insert(session).values([
    { id: `s1-${id}`, token: `t1-${id}`, userId: id, expiresAt: expires },
    { id: `s2-${id}`, token: `t2-${id}`, userId: id, expiresAt: expires },
  ]);
  await db.insert(applicationDrafts).values({ userId: id, loanType: "personal", expiresAt: expires });
  await db.insert(notificationPreferences).values({ userId: id });
  await db.insert(passkeys).values({ userId: id, credentialId: `cred-${id}`, publicKey: "pk", name: "Laptop" });
  let applicationId: string | null = null;
  if (withApplication) {
    const [app] = await db.insert(loanApplications).values(applicationRow(id, { email })).returning({ id: loanApplications.id });
    applicationId = app!.id;
  }
  return { actor: { id, name: "Casey Closer", email }, applicationId };
}

function formRequest(fields: Record<string, string>) {
  return new Request("https://loans.example.com/account/data", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } });
}

describe("Close My Account", () => {
  getDb = useTestDatabase({ global: true });

  it("refuses a wrong password and a missing confirmation (400), changing nothing", async () => {
    const { actor } = await applicant();
    const wrong = await accountDataAction(formRequest({ intent: "close-account", password: "nope", confirmation: "CLOSE" }), { actor: { ...actor, isStaff: false }, request: {} });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors?.password).toEqual(["The password is not correct."]);
    const unconfirmed = await accountDataAction(formRequest({ intent: "close-account", password: PASSWORD, confirmation: "close it" }), { actor: { ...actor, isStaff: false }, request: {} });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.fieldErrors?.confirmation).toEqual(["Type CLOSE to confirm."]);
    const unknown = await accountDataAction(formRequest({ intent: "delete-everything" }), { actor: { ...actor, isStaff: false }, request: {} });
    expect(unknown.status).toBe(400);
    const staff = await accountDataAction(formRequest({ intent: "close-account", password: PASSWORD, confirmation: "CLOSE" }), { actor: { ...actor, isStaff: true }, request: {} });
    expect(staff.status).toBe(403);
    const db = getDb().db;
    expect((await db.select().from(profiles).where(eq(profiles.id, actor.id)))[0]?.closedAt).toBeNull();
    expect(await db.select().from(session).where(eq(session.userId, actor.id))).toHaveLength(2);
  });

  it("closes: signs out everywhere, deletes what can go, keeps the application, audits and e-mails; a second try is 409", async () => {
    const db = getDb().db;
    const storage = createLocalStorage(path.join(dataDir, "storage"));
    const { actor, applicationId } = await applicant();
    const [exp] = await db.insert(dataExports).values({ userId: actor.id, status: "failed" }).returning({ id: dataExports.id });
    const key = `exports/${exp!.id}/data_export.zip`;
    await storage.put(key, new Uint8Array([80, 75, 5, 6]), "application/zip");
    await db.update(dataExports).set({ storageKey: key }).where(eq(dataExports.id, exp!.id));

    // Its application is pending: closing is refused until the applicant withdraws it.
    const refused = await accountDataAction(formRequest({ intent: "close-account", password: PASSWORD, confirmation: "CLOSE" }), { actor: { ...actor, isStaff: false }, request: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.toast?.description).toContain("Withdraw it first");
    await withdrawApplication(applicationId, { actor: { ...actor, isStaff: false }, request: {} }, db);

    const answer = await accountDataAction(formRequest({ intent: "close-account", password: PASSWORD, confirmation: " CLOSE " }), { actor: { ...actor, isStaff: false }, request: { ip: "203.0.113.5" } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, intent: "close-account", redirectTo: "/auth" });

    expect((await db.select().from(profiles).where(eq(profiles.id, actor.id)))[0]?.closedAt).toBeInstanceOf(Date);
    expect(await db.select().from(session).where(eq(session.userId, actor.id))).toHaveLength(0);
    expect(await db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, actor.id))).toHaveLength(0);
    expect(await db.select().from(passkeys).where(eq(passkeys.userId, actor.id))).toHaveLength(0);
    expect(await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, actor.id))).toHaveLength(0);
    expect(await db.select().from(dataExports).where(eq(dataExports.userId, actor.id))).toHaveLength(0);
    // The file is removed once the transaction committed (the default storage is the same folder).
    expect(await db.select().from(loanApplications).where(eq(loanApplications.id, applicationId!))).toHaveLength(1);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, "account.close"), eq(auditLog.actorId, actor.id)));
    expect(audit?.ipAddress).toBe("203.0.113.5");
    expect(audit?.details).toMatchObject({ removed: { sessions: 2, drafts: 1, passkeys: 1, notificationPreferences: 1, dataExports: 1 } });
    const [mail] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.template, "account-closed"), eq(emailOutbox.toAddress, actor.email)));
    expect(mail?.textBody).toContain("7 years after the decision or the loan's end");

    const again = await rejectionOf(closeAccount(db, storage, PASSWORD, { actor, request: {} }));
    expect((again as AppError).status).toBe(409);

    // Retention: kept while the application is; the application's period over, the account goes too.
    expect((await disposeExpiredRecords({ db, storage })).counts.closedAccounts).toBe(0);
    const farFuture = addMonths(new Date(), 85);
    const later = await disposeExpiredRecords({ db, storage, now: farFuture });
    expect(later.counts.closedAccounts).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(userTable).where(eq(userTable.id, actor.id))).toHaveLength(0);
  });

  it("a closed account with no applications is removed by the next retention run; an open one never", async () => {
    const db = getDb().db;
    const storage = createLocalStorage(path.join(dataDir, "storage"));
    const closing = await applicant(false);
    const open = await applicant(false);
    await closeAccount(db, storage, PASSWORD, { actor: closing.actor, request: {} });
    const result = await disposeExpiredRecords({ db, storage, now: new Date(Date.now() + 1000) });
    expect(result.counts.closedAccounts).toBe(1);
    expect(await db.select().from(userTable).where(eq(userTable.id, closing.actor.id))).toHaveLength(0);
    expect(await db.select().from(userTable).where(eq(userTable.id, open.actor.id))).toHaveLength(1);
    // The audit row of the closing outlives the account.
    expect(await db.select().from(auditLog).where(and(eq(auditLog.action, "account.close"), eq(auditLog.actorId, closing.actor.id)))).toHaveLength(1);
  });

  it("refuses while a loan is active or an offer waits (409, with the reason), and the page says so", async () => {
    const db = getDb().db;
    const storage = createLocalStorage(path.join(dataDir, "storage"));
    const admin = await servicingAdmin(db);
    const loan = await activeLoan(db, dataDir, admin);
    await seedPassword(db, loan.owner.id, PASSWORD);
    const refused = await rejectionOf(closeAccount(db, storage, PASSWORD, { actor: loan.owner, request: {} }));
    expect((refused as AppError).status).toBe(409);
    expect(refused.message).toContain("active loan");
    expect((await loadClosureView(db, loan.owner.id)).blocker).toContain("active loan");

    const offered = await applicant();
    await approveApplication(offered.applicationId!, { approvedAmountCents: 2_500_000, interestRateMilli: 9500, termMonths: 36, originationFeeMilli: 1000 }, { actor: admin, request: {} }, db);
    const offerRefused = await rejectionOf(closeAccount(db, storage, PASSWORD, { actor: offered.actor, request: {} }));
    expect((offerRefused as AppError).status).toBe(409);
    expect(offerRefused.message).toContain("loan offer");
    expect((await db.select().from(profiles).where(eq(profiles.id, offered.actor.id)))[0]?.closedAt).toBeNull();
    const view = await loadClosureView(db, offered.actor.id);
    expect(view.keptPeriod).toBe("7 years after the decision or the loan's end");
    expect(view.kept).toHaveLength(1);
  });
});
