import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runEncryptionMigration } from "~/server/staff/encryption-migration.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getConfig, type EncryptionKey } from "~/server/platform/config.server";
import { decryptField, encryptField, isEncrypted } from "~/server/platform/crypto/field-encryption.server";
import { MFA_SECRET_PURPOSE } from "~/server/accounts/mfa.server";
import { achBatches, adminMfa, auditLog, bankAccounts, loanApplications, type NewBankAccount } from "~/server/platform/db/schema.server";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { setUpTestConfig } from "../helpers/temp-config";
import { applicationRow } from "../helpers/application-rows";
import { seedApplicant, seedUser } from "../helpers/seed";

/**
 * 'Encrypt Existing Bank Data' against a real database: plain-text account, routing and SSN values
 * inserted directly are encrypted (and decrypt to what was stored), the masked digits are refreshed,
 * a second run encrypts nothing, old-key values are re-encrypted under the current key, and the run
 * is audited.
 */

setUpTestConfig("enc-migration", { APP_SECRET: "d".repeat(48) });

const key = (version: number): EncryptionKey => ({ version, key: randomBytes(32) });

describe.each(testTargets)("encryption migration on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  const admin: AuditActor = { id: `admin-${target}`, name: "Ada Admin", email: "ada@example.com" };
  let n = 0;

  async function newApplication(ssn: string | null) {
    n += 1;
    const userId = `enc-user-${target}-${n}`;
    await seedApplicant(db(), { id: userId, name: `User ${n}`, email: `enc${n}@example.com` });
    const [row] = await db()
      .insert(loanApplications)
      .values(applicationRow(userId, { requestedAmountCents: 1_000_000, email: "jane@example.com", ssnEncrypted: ssn }))
      .returning({ id: loanApplications.id });
    return { userId, applicationId: row!.id };
  }

  async function newBankAccount(owner: { userId: string; applicationId: string }, values: Partial<NewBankAccount>) {
    const [row] = await db()
      .insert(bankAccounts)
      .values({
        userId: owner.userId,
        applicationId: owner.applicationId,
        accountHolderName: "Jane Doe",
        bankName: "First Bank",
        accountNumber: "0000000000",
        routingNumber: "000000000",
        // Deliberately stale: the migration refreshes them from the numbers it encrypts.
        accountNumberLast4: "0000",
        routingNumberLast2: "00",
        ...values,
      })
      .returning({ id: bankAccounts.id });
    return row!.id;
  }

  it("encrypts every plain-text value, refreshes the masked digits, and a second run encrypts nothing", async () => {
    const keys = getConfig().encryptionKeys;
    const a = await newApplication("123456789");
    const b = await newApplication("987-65-4321");
    const c = await newApplication(null);
    const d = await newApplication(encryptField("111223333", ENCRYPTION_PURPOSES.ssn, keys));
    const plainBank = await newBankAccount(a, { accountNumber: "000123456789", routingNumber: "021000021" });
    const mixedBank = await newBankAccount(b, {
      accountNumber: encryptField("5555666677", ENCRYPTION_PURPOSES.accountNumber, keys),
      accountNumberLast4: "6677",
      routingNumber: "111000025",
    });
    const doneBank = await newBankAccount(c, {
      accountNumber: encryptField("4444333322", ENCRYPTION_PURPOSES.accountNumber, keys),
      routingNumber: encryptField("031000053", ENCRYPTION_PURPOSES.routingNumber, keys),
      accountNumberLast4: "3322",
      routingNumberLast2: "53",
    });
    const mixedBefore = (await db().select().from(bankAccounts).where(eq(bankAccounts.id, mixedBank)))[0]!;

    // Plain: SSN a, SSN b, both numbers of plainBank, the routing number of mixedBank = 5.
    // Already encrypted: SSN d, mixedBank's account number, both of doneBank = 4.
    const first = await runEncryptionMigration({ actor: admin, request: { ip: "203.0.113.5" } }, db(), { batchSize: 2 });
    expect(first).toMatchObject({ encrypted: 5, skipped: 4, failed: 0, bankValues: { encrypted: 3, failed: 0 }, ssnValues: { encrypted: 2, failed: 0 } });

    const apps = await db().select().from(loanApplications).where(inArray(loanApplications.id, [a.applicationId, b.applicationId, c.applicationId, d.applicationId]));
    const ssnOf = (id: string) => apps.find((x) => x.id === id)!.ssnEncrypted;
    expect(isEncrypted(ssnOf(a.applicationId))).toBe(true);
    expect(decryptField(ssnOf(a.applicationId)!, ENCRYPTION_PURPOSES.ssn)).toBe("123456789");
    expect(decryptField(ssnOf(b.applicationId)!, ENCRYPTION_PURPOSES.ssn)).toBe("987-65-4321");
    expect(ssnOf(c.applicationId)).toBeNull();
    expect(decryptField(ssnOf(d.applicationId)!, ENCRYPTION_PURPOSES.ssn)).toBe("111223333");

    const banks = await db().select().from(bankAccounts).where(inArray(bankAccounts.id, [plainBank, mixedBank, doneBank]));
    const bank = (id: string) => banks.find((x) => x.id === id)!;
    expect(decryptField(bank(plainBank).accountNumber, ENCRYPTION_PURPOSES.accountNumber)).toBe("000123456789");
    expect(decryptField(bank(plainBank).routingNumber, ENCRYPTION_PURPOSES.routingNumber)).toBe("021000021");
    expect(bank(plainBank)).toMatchObject({ accountNumberLast4: "6789", routingNumberLast2: "21" });
    // Only the plain value of a half-encrypted row was rewritten.
    expect(bank(mixedBank).accountNumber).toBe(mixedBefore.accountNumber);
    expect(decryptField(bank(mixedBank).routingNumber, ENCRYPTION_PURPOSES.routingNumber)).toBe("111000025");
    expect(bank(mixedBank)).toMatchObject({ accountNumberLast4: "6677", routingNumberLast2: "25" });
    expect(bank(doneBank)).toMatchObject({ accountNumberLast4: "3322", routingNumberLast2: "53" });
    for (const row of banks) expect(JSON.stringify(row)).not.toMatch(/123456789|021000021|111000025/);

    const second = await runEncryptionMigration({ actor: admin, request: {} }, db());
    expect(second).toMatchObject({ encrypted: 0, skipped: 9, failed: 0 });
    const after = await db().select().from(bankAccounts).where(inArray(bankAccounts.id, [plainBank, mixedBank, doneBank]));
    expect(after.map((r) => r.accountNumber).sort()).toEqual(banks.map((r) => r.accountNumber).sort());

    const audits = await db().select().from(auditLog).where(eq(auditLog.action, "encryption.migrate"));
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({ actorId: admin.id, actorName: "Ada Admin", ipAddress: "203.0.113.5" });
    expect(audits[0]!.details).toMatchObject({ encrypted: 5, skipped: 4, failed: 0, completed: true, keyVersion: keys[0]!.version });
    expect(audits[1]!.details).toMatchObject({ encrypted: 0, skipped: 9, completed: true });
  });

  it("re-encrypts values written with an older key under the current one (counted as encrypted); a value whose key is gone is reported, not changed", async () => {
    const current = getConfig().encryptionKeys[0]!;
    const old = key(current.version + 10);
    const next = key(current.version + 20);
    const owner = await newApplication(encryptField("222334444", ENCRYPTION_PURPOSES.ssn, [current]));
    const bankId = await newBankAccount(owner, {
      accountNumber: encryptField("9999888877", ENCRYPTION_PURPOSES.accountNumber, [old]),
      routingNumber: encryptField("026009593", ENCRYPTION_PURPOSES.routingNumber, [current]),
      accountNumberLast4: "8877",
      routingNumberLast2: "93",
    });
    const stray = await newApplication(encryptField("555667777", ENCRYPTION_PURPOSES.ssn, [key(current.version + 30)]));

    // Rotation: `next` is now current; `current` and `old` still decrypt.
    const rotated = [next, current, old];
    const result = await runEncryptionMigration({ actor: admin, request: {} }, db(), { keys: rotated });
    const [bank] = await db().select().from(bankAccounts).where(eq(bankAccounts.id, bankId));
    expect(bank!.accountNumber.startsWith(`enc:v${next.version}:`)).toBe(true);
    expect(bank!.routingNumber.startsWith(`enc:v${next.version}:`)).toBe(true);
    expect(decryptField(bank!.accountNumber, ENCRYPTION_PURPOSES.accountNumber, [next])).toBe("9999888877");
    expect(decryptField(bank!.routingNumber, ENCRYPTION_PURPOSES.routingNumber, [next])).toBe("026009593");
    const [app] = await db().select().from(loanApplications).where(eq(loanApplications.id, owner.applicationId));
    expect(decryptField(app!.ssnEncrypted!, ENCRYPTION_PURPOSES.ssn, [next])).toBe("222334444");
    const [strayRow] = await db().select().from(loanApplications).where(eq(loanApplications.id, stray.applicationId));
    expect(strayRow!.ssnEncrypted!.startsWith(`enc:v${current.version + 30}:`)).toBe(true);
    expect(result.failed).toBe(1);
    // Everything from the first test (9 values) plus these 3 moved to the new key; the stray one failed.
    expect(result.encrypted).toBe(12);
    expect(result.skipped).toBe(0);
    const again = await runEncryptionMigration({ actor: admin, request: {} }, db(), { keys: rotated });
    expect(again).toMatchObject({ encrypted: 0, failed: 1, skipped: 12 });
  });

  it("re-encrypts admins' second-factor secrets on key rotation, so dropping the old key locks nobody out", async () => {
    const current = getConfig().encryptionKeys[0]!;
    const next = key(current.version + 40);
    const adminId = `enc-admin-${target}`;
    await seedUser(db(), { id: adminId, name: "Ada", email: `ada-${target}@example.com` });
    await db()
      .insert(adminMfa)
      .values({ userId: adminId, secretEncrypted: encryptField("JBSWY3DPEHPK3PXP", MFA_SECRET_PURPOSE, [current]), backupCodeHashes: [] });

    const result = await runEncryptionMigration({ actor: admin, request: {} }, db(), { keys: [next, current] });
    expect(result.mfaSecrets).toEqual({ encrypted: 1, failed: 0 });
    const [row] = await db().select().from(adminMfa).where(eq(adminMfa.userId, adminId));
    expect(row!.secretEncrypted.startsWith(`enc:v${next.version}:`)).toBe(true);
    // Only the new key is needed from now on.
    expect(decryptField(row!.secretEncrypted, MFA_SECRET_PURPOSE, [next])).toBe("JBSWY3DPEHPK3PXP");
    const again = await runEncryptionMigration({ actor: admin, request: {} }, db(), { keys: [next, current] });
    expect(again.mfaSecrets).toEqual({ encrypted: 0, failed: 0 });
  });

  it("two runs at once never encrypt a value twice: every value decrypts to its original", async () => {
    const keys = getConfig().encryptionKeys;
    const owners = [];
    for (let i = 0; i < 6; i++) owners.push(await newApplication(`70000000${i}`));
    const ids = [];
    // Six different valid routing numbers, so each decrypts to its own.
    const routings = ["021000021", "011000015", "122105278", "111000025", "091000019", "026009593"];
    for (let i = 0; i < owners.length; i++) ids.push(await newBankAccount(owners[i]!, { accountNumber: `12345678${i}0`, routingNumber: routings[i]! }));
    const [x, y] = await Promise.all([
      runEncryptionMigration({ actor: admin, request: {} }, db(), { batchSize: 2 }),
      runEncryptionMigration({ actor: admin, request: {} }, db(), { batchSize: 3 }),
    ]);
    // 6 SSNs and 12 bank numbers, each encrypted by exactly one of the two runs. (The earlier tests' 14
    // values — 13 bank/SSN values and one admin secret — are under keys this configuration lacks: both
    // runs report them as failed.)
    expect(x.encrypted + y.encrypted).toBe(6 + 12);
    expect([x.failed, y.failed]).toEqual([14, 14]);
    const banks = await db().select().from(bankAccounts).where(inArray(bankAccounts.id, ids));
    for (const row of banks) {
      const i = ids.indexOf(row.id);
      expect(decryptField(row.accountNumber, ENCRYPTION_PURPOSES.accountNumber, keys)).toBe(`12345678${i}0`);
      expect(decryptField(row.routingNumber, ENCRYPTION_PURPOSES.routingNumber, keys)).toBe(routings[i]);
      expect(row.accountNumberLast4).toBe(`78${i}0`);
    }
    const apps = await db().select().from(loanApplications).where(inArray(loanApplications.id, owners.map((o) => o.applicationId)));
    for (const app of apps) expect(decryptField(app.ssnEncrypted!, ENCRYPTION_PURPOSES.ssn, keys)).toMatch(/^70000000\d$/);
  });

  it("seals NACHA files stored in plain text and re-encrypts old-key ones: no readable account number stays in ach_batches", async () => {
    const current = getConfig().encryptionKeys[0]!;
    const next = key(current.version + 50);
    const plainFile = `6270210000210001234567890000012345LOANID         JANE DOE                0091000010000001\n`;
    const [legacy] = await db()
      .insert(achBatches)
      .values({ entryCount: 1, totalCents: 12_345, fileName: "ach-legacy", effectiveDate: "2026-11-25", content: plainFile })
      .returning({ id: achBatches.id });
    const [old] = await db()
      .insert(achBatches)
      .values({ entryCount: 1, totalCents: 12_345, fileName: "ach-old-key", effectiveDate: "2026-11-25", content: encryptField(plainFile, ENCRYPTION_PURPOSES.achFile, [current]) })
      .returning({ id: achBatches.id });
    const result = await runEncryptionMigration({ actor: admin, request: {} }, db(), { keys: [next, current] });
    expect(result.achFiles).toEqual({ encrypted: 2, failed: 0 });
    for (const id of [legacy!.id, old!.id]) {
      const [row] = await db().select().from(achBatches).where(eq(achBatches.id, id));
      expect(row!.content.startsWith(`enc:v${next.version}:`)).toBe(true);
      expect(row!.content).not.toContain("1234567890");
      expect(decryptField(row!.content, ENCRYPTION_PURPOSES.achFile, [next])).toBe(plainFile);
    }
    expect((await runEncryptionMigration({ actor: admin, request: {} }, db(), { keys: [next, current] })).achFiles).toEqual({ encrypted: 0, failed: 0 });
  });
});
