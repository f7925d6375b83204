import { eq } from "drizzle-orm";
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { validateApplicationFields } from "~/domain/validation/application";
import { runEncryptionMigration } from "~/server/staff/encryption-migration.server";
import { listClients } from "~/server/staff/clients.server";
import { applicationRow, bankAccountRow } from "~/server/applications/submit.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getConfig, setConfig, type EncryptionKey } from "~/server/platform/config.server";
import { auditLog, bankAccounts, loanApplications, profiles, user, userRoles } from "~/server/platform/db/schema.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { grantStaffRole, seedApplicant } from "../helpers/seed";

/**
 * Staff search on /admin/clients (issue 24) against a real database, on PGlite and PostgreSQL: each
 * kind (name, e-mail, phone, application id prefix, SSN / account last 4 through the keyed blind
 * index) finds the right applicant and no one else, staff never appear, hostile entries are plain
 * text, and the encryption migration indexes rows written before migration 0011 or under an old key.
 */

setUpTestConfig("client-search", { APP_SECRET: "q".repeat(48) });

const admin: AuditActor = { id: "admin-1", name: "Ada Admin", email: "ada@example.com" };

function fields(o: { first: string; last: string; email: string; phone: string; ssn: string; account: string }) {
  const validated = validateApplicationFields({
    firstName: o.first,
    lastName: o.last,
    dateOfBirth: "1980-02-03",
    ssn: o.ssn,
    email: o.email,
    phone: o.phone,
    addressLine1: "12 Market Street",
    city: "Wilmington",
    state: "DE",
    zipCode: "19801",
    loanType: "personal",
    loanAmount: "10000",
    desiredInterestRate: "9.50",
    loanDuration: "36",
    loanPurpose: "Consolidating two credit cards",
    employmentStatus: "full-time",
    employerName: "Acme",
    jobTitle: "Staff",
    yearsEmployed: "4",
    monthlyIncome: "6000",
    annualIncome: "72000",
    creditScore: "700",
    monthlyDebts: "200",
    hasOutstandingLoans: "false",
    authorizeCreditReport: "true",
    accountHolderName: `${o.first} ${o.last}`,
    bankName: "First Bank",
    accountNumber: o.account,
    routingNumber: "026009593",
    bankAccountType: "checking",
    agreeToTerms: "true",
  });
  if (!validated.ok) throw new Error(`${validated.problem.field}: ${validated.problem.message}`);
  return validated.value;
}

describe.each(testTargets)("staff client search on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  const ids = (q: string) => listClients({ q, page: 1 }, { actor: admin, request: {} }, db()).then((l) => l.clients.map((c) => c.id));

  async function person(id: string, fullName: string, email: string, app?: Parameters<typeof fields>[0], phone?: string) {
    await seedApplicant(db(), { id, name: fullName, email, profile: { phone: phone ?? null } });
    if (!app) return null;
    const applicationId = randomUUID();
    const f = fields(app);
    await db().insert(loanApplications).values(applicationRow(applicationId, { id }, f, `k-${applicationId}`));
    await db().insert(bankAccounts).values(bankAccountRow(id, applicationId, f, true));
    return applicationId;
  }

  let janeApp = "";
  let omarApp = "";

  it("sets up applicants, one staff member and their applications", async () => {
    janeApp = (await person("u-jane", "Jane Whitaker", "jane.whitaker@example.com", { first: "Jane", last: "Whitaker", email: "jane.whitaker@example.com", phone: "3025550111", ssn: "078-05-1120", account: "000123454321" }))!;
    omarApp = (await person("u-omar", "Omar Haddad", "omar@mail.test", { first: "Omar", last: "Haddad", email: "omar@mail.test", phone: "2155550188", ssn: "219-09-4321", account: "99887766551120" }, "6105550177"))!;
    await person("u-zoe", "Zoë Łukasiewicz", "zoe@example.com");
    await person("u-staff", "Jane Staffer", "jane.staffer@example.com", { first: "Jane", last: "Staffer", email: "jane.staffer@example.com", phone: "3025550111", ssn: "078-05-1120", account: "111111111120" });
    await grantStaffRole(db(), "u-staff", "admin");
    const [app] = await db().select().from(loanApplications).where(eq(loanApplications.id, janeApp));
    expect(app!.ssnLast4Index).toMatch(/^v\d+:[A-Za-z0-9_-]{22}$/);
    expect(app!.ssnLast4Index).not.toContain("1120");
  });

  it("finds by name prefix (first or last name, any case, unicode) and never lists staff", async () => {
    expect(await ids("jane")).toEqual(["u-jane"]);
    expect(await ids("WHIT")).toEqual(["u-jane"]);
    expect(await ids("jane whitaker")).toEqual(["u-jane"]);
    expect(await ids("haddad")).toEqual(["u-omar"]);
    expect(await ids("zoë")).toEqual(["u-zoe"]);
    expect(await ids("Łukas")).toEqual(["u-zoe"]);
    expect(await ids("staffer")).toEqual([]);
    expect(await ids("aker")).toEqual([]);
    const all = await listClients({ q: "", page: 1 }, { actor: admin, request: {} }, db());
    expect(all.total).toBe(3);
    expect(all.clients.map((c) => c.id)).toEqual(["u-jane", "u-omar", "u-zoe"]);
  });

  it("finds by e-mail prefix and by domain", async () => {
    expect(await ids("JANE.WHITAKER@EX")).toEqual(["u-jane"]);
    expect(await ids("jane.whit")).toEqual(["u-jane"]);
    expect(await ids("jane.w@")).toEqual([]);
    expect(await ids("omar@mail.test")).toEqual(["u-omar"]);
    expect(await ids("@example.com")).toEqual(["u-jane", "u-zoe"]);
    expect(await ids("@mail")).toEqual(["u-omar"]);
  });

  it("finds by phone, on the profile or on an application, in any usual format", async () => {
    expect(await ids("(215) 555-0188")).toEqual(["u-omar"]);
    expect(await ids("+1 610 555 0177")).toEqual(["u-omar"]);
    expect(await ids("302-555-0111")).toEqual(["u-jane"]);
    expect(await ids("3025550")).toEqual(["u-jane"]);
    expect(await ids("4045550111")).toEqual([]);
  });

  it("finds by application id prefix (with or without dashes) and by the whole id", async () => {
    expect(await ids(janeApp)).toEqual(["u-jane"]);
    expect(await ids(janeApp.slice(0, 13).toUpperCase())).toContain("u-jane");
    expect(await ids(omarApp.replace(/-/g, "").slice(0, 12))).toContain("u-omar");
    expect(await ids(omarApp.replace(/-/g, "").slice(0, 12))).not.toContain("u-jane");
  });

  it("finds by SSN or account last 4 through the blind index, and writes no digits to the audit log", async () => {
    // 1120: Jane's SSN, Omar's account (and the staff member's both: never listed).
    expect(await ids("1120")).toEqual(["u-jane", "u-omar"]);
    expect(await ids("4321")).toEqual(["u-jane", "u-omar"]);
    expect(await ids("5432")).toEqual([]);
    const [row] = await db().select().from(auditLog).where(eq(auditLog.action, "client.list")).orderBy(auditLog.id);
    const rows = await db().select({ details: auditLog.details }).from(auditLog).where(eq(auditLog.action, "client.list"));
    expect(row).toBeDefined();
    const last4Rows = rows.filter((r) => JSON.stringify(r.details).includes("last4"));
    expect(last4Rows.length).toBeGreaterThan(0);
    for (const r of last4Rows) expect(JSON.stringify(r.details)).not.toMatch(/1120|4321|5432/);
  });

  it("takes hostile entries as plain text: no wildcard, no error", async () => {
    for (const q of ["%", "_", "%%%", "j%", "j_ne", "'; drop table profiles; --", "\\", "a".repeat(200), "😀", "\u202Ejane", "@", "@@", "----", "0000-"]) {
      const list = await listClients({ q, page: 1 }, { actor: admin, request: {} }, db());
      expect(list.clients.map((c) => c.id)).not.toContain("u-staff");
      if (!/^0000/.test(q)) expect(list.clients).toEqual([]);
    }
    expect((await listClients({ q: "a".repeat(200), page: 1 }, { actor: admin, request: {} }, db())).q).toHaveLength(100);
  });

  it("indexes rows written before the blind index, and re-indexes after a key rotation (old tokens still found meanwhile)", async () => {
    await db().update(loanApplications).set({ ssnLast4Index: null });
    await db().update(bankAccounts).set({ accountLast4Index: null });
    expect(await ids("1120")).toEqual([]);
    const first = await runEncryptionMigration({ actor: admin, request: {} }, db());
    expect(first.searchIndexes).toEqual({ indexed: 6, failed: 0 });
    expect(first.encrypted).toBe(0);
    expect(await ids("1120")).toEqual(["u-jane", "u-omar"]);

    const config = getConfig();
    const current = config.encryptionKeys[0]!;
    const next: EncryptionKey = { version: current.version + 1, key: randomBytes(32) };
    setConfig({ ...config, encryptionKeys: [next, ...config.encryptionKeys] });
    try {
      // Not yet re-indexed: found through the old key's token.
      expect(await ids("4321")).toEqual(["u-jane", "u-omar"]);
      const rotated = await runEncryptionMigration({ actor: admin, request: {} }, db());
      expect(rotated.searchIndexes).toEqual({ indexed: 6, failed: 0 });
      const tokens = await db().select({ t: loanApplications.ssnLast4Index }).from(loanApplications);
      for (const { t } of tokens) expect(t!.startsWith(`v${next.version}:`)).toBe(true);
      // Found with the new key alone.
      setConfig({ ...config, encryptionKeys: [next] });
      expect(await ids("4321")).toEqual(["u-jane", "u-omar"]);
      expect((await runEncryptionMigration({ actor: admin, request: {} }, db(), { keys: [next] })).searchIndexes).toEqual({ indexed: 0, failed: 0 });
    } finally {
      setConfig(config);
    }
  });

  it("keeps the list's total as people sign up, become staff, stop being staff and are removed", async () => {
    const total = async () => (await listClients({ q: "", page: 1 }, { actor: admin, request: {} }, db())).total;
    const count = async () => {
      const rows = await db().select({ id: profiles.id }).from(profiles);
      const staff = await db().select({ id: userRoles.userId }).from(userRoles);
      return rows.filter((r) => !staff.some((s) => s.id === r.id)).length;
    };
    expect(await total()).toBe(await count());
    await person("u-new", "Nell Newcomer", "nell@example.com");
    expect(await total()).toBe(4);
    await grantStaffRole(db(), "u-new", "auditor");
    expect(await total()).toBe(3);
    await db().update(userRoles).set({ userId: "u-zoe" }).where(eq(userRoles.userId, "u-new"));
    expect(await total()).toBe(3);
    expect(await ids("nell")).toEqual(["u-new"]);
    expect(await ids("zoë")).toEqual([]);
    await db().delete(userRoles).where(eq(userRoles.userId, "u-zoe"));
    expect(await total()).toBe(4);
    await db().delete(user).where(eq(user.id, "u-new"));
    expect(await total()).toBe(3);
    await db().delete(userRoles).where(eq(userRoles.userId, "u-staff"));
    expect(await total()).toBe(4);
    expect(await total()).toBe(await count());
  });
});
