import { and, desc, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { LoadContext } from "~/load-context";
import { action as revealAction } from "~/routes/api/admin-reveal";
import { CLIENTS_PAGE_SIZE, escapeLike, getClientDetail, listClients, parseClientsUrl } from "~/server/staff/clients.server";
import { REVEAL_MESSAGES } from "~/domain/reveal";
import { revealSensitiveValue } from "~/server/staff/reveal.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { auditLog, bankAccounts, loanApplications, loanDocuments, profiles } from "~/server/platform/db/schema.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { grantStaffRole, seedApplicant } from "../helpers/seed";

/**
 * The admin client view and the reveal of one sensitive value, against a real database: search
 * (case-insensitive, wildcards escaped), pagination, details without ciphertext, reveals that return
 * exactly one value and are audited, 'No SSN Available', legacy plaintext, decryption failures.
 */

setUpTestConfig("admin-clients", { APP_SECRET: "c".repeat(48) });

const admin: AuditActor = { id: "admin-1", name: "Ada Admin", email: "ada@example.com" };
const info = { ip: "203.0.113.9", userAgent: "vitest-agent" };
const caller = { actor: admin, request: info };

describe("admin clients", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;

  async function addClient(id: string, fullName: string, email: string, extra: Partial<typeof profiles.$inferInsert> = {}) {
    await seedApplicant(db(), { id, name: fullName, email, profile: extra });
  }

  async function addApplication(userId: string, ssnEncrypted: string | null, submittedAt = new Date()): Promise<string> {
    const id = randomUUID();
    await db().insert(loanApplications).values({
      id,
      userId,
      loanType: "personal",
      requestedAmountCents: 5_000_000,
      desiredRateMilli: 8500,
      loanDuration: 60,
      purpose: "Consolidating two credit cards",
      firstName: "Jane",
      lastName: "Doe",
      dateOfBirth: "1988-04-12",
      email: "jane@example.com",
      phone: "3025550199",
      addressLine1: "12 Market Street",
      city: "Wilmington",
      state: "DE",
      zipCode: "19801",
      ssnEncrypted,
      employmentStatus: "full-time",
      employerName: "Acme",
      monthlyIncomeCents: 850000,
      submittedAt,
    });
    return id;
  }

  async function addBankAccount(userId: string, applicationId: string, accountNumber: string, routingNumber: string, last4 = "6789", last2 = "21") {
    const [row] = await db()
      .insert(bankAccounts)
      .values({
        userId,
        applicationId,
        accountHolderName: "Jane Doe",
        bankName: "First Bank",
        accountType: "checking",
        accountNumber,
        routingNumber,
        accountNumberLast4: last4,
        routingNumberLast2: last2,
        isPrimary: false,
      })
      .returning({ id: bankAccounts.id });
    return row!.id;
  }

  const lastAudit = async (action: string) => {
    const [row] = await db().select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1);
    return row;
  };

  beforeAll(async () => {
    await addClient("c-alice", "Alice Anderson", "alice.anderson@example.com", { phone: "3025550111", address: "1 Elm St", city: "Dover", state: "DE", zipCode: "19901" });
    await addClient("c-bob", "Bob 100% Real", "bob@example.com");
    await addClient("c-carol", "Carol Smith", "carol_smith@example.org");
    await addClient("c-dave", "Dave Jones", "davexsmith@example.org");
    for (let i = 1; i <= 30; i++) {
      const n = String(i).padStart(2, "0");
      await addClient(`c-page-${n}`, `Paging Person ${n}`, `pp${n}@paging.test`);
    }
  });

  describe("search and pagination", () => {
    it("matches a case-insensitive prefix of the name, the last name or the e-mail (issue 24: indexed, not a substring)", async () => {
      expect((await listClients({ q: "aLiCe", page: 1 }, caller)).clients.map((c) => c.id)).toEqual(["c-alice"]);
      expect((await listClients({ q: "ALICE.ANDERSON@EXAMPLE", page: 1 }, caller)).clients.map((c) => c.id)).toEqual(["c-alice"]);
      expect((await listClients({ q: "smith", page: 1 }, caller)).clients.map((c) => c.id)).toEqual(["c-carol"]);
      expect((await listClients({ q: "@example.org", page: 1 }, caller)).clients.map((c) => c.id)).toEqual(["c-carol", "c-dave"]);
      expect((await listClients({ q: "nobody-here", page: 1 }, caller)).clients).toEqual([]);
    });

    it("takes % and _ literally (no LIKE)", async () => {
      expect(escapeLike("a%b_c\\d")).toBe("a\\%b\\_c\\\\d");
      expect((await listClients({ q: "bob 100%", page: 1 }, caller)).clients.map((c) => c.id)).toEqual(["c-bob"]);
      expect((await listClients({ q: "%", page: 1 }, caller)).clients).toEqual([]);
      expect((await listClients({ q: "_", page: 1 }, caller)).clients).toEqual([]);
      expect((await listClients({ q: "carol_smith@", page: 1 }, caller)).clients.map((c) => c.id)).toEqual(["c-carol"]);
      expect((await listClients({ q: "carol%smith@", page: 1 }, caller)).clients).toEqual([]);
      expect((await listClients({ q: "\\", page: 1 }, caller)).clients).toEqual([]);
    });

    it("lists by full name and pages by 25 without a search; a search shows its first 25 and says there are more", async () => {
      const all = await listClients({ q: "", page: 1 }, caller);
      expect(all).toMatchObject({ total: 34, page: 1, pageCount: 2, pageSize: CLIENTS_PAGE_SIZE, more: false });
      expect(all.clients).toHaveLength(25);
      expect(all.clients[0]!.fullName).toBe("Alice Anderson");
      const second = await listClients({ q: "", page: 2 }, caller);
      expect(second.clients.map((c) => c.fullName)).toEqual(["22", "23", "24", "25", "26", "27", "28", "29", "30"].map((n) => `Paging Person ${n}`));
      expect((await listClients({ q: "", page: 99 }, caller)).page).toBe(2);
      const search = await listClients({ q: "@paging.test", page: 2 }, caller);
      expect(search).toMatchObject({ total: 25, page: 1, pageCount: 1, more: true });
      expect(search.clients[0]!.fullName).toBe("Paging Person 01");
      expect(search.clients[24]!.fullName).toBe("Paging Person 25");
      const narrower = await listClients({ q: "paging person 2", page: 1 }, caller);
      expect(narrower.clients.map((c) => c.fullName)).toEqual(["20", "21", "22", "23", "24", "25", "26", "27", "28", "29"].map((n) => `Paging Person ${n}`));
      expect(narrower.more).toBe(false);
    });

    it("reads ?q, ?page and ?client from the URL, refusing junk", () => {
      expect(parseClientsUrl(new URL("http://x/admin/clients?q=%20Jane%20&page=3&client=c-alice"))).toEqual({ q: "Jane", page: 3, clientId: "c-alice" });
      expect(parseClientsUrl(new URL("http://x/admin/clients?page=-1&client=../etc"))).toEqual({ q: "", page: 1, clientId: null });
      expect(parseClientsUrl(new URL(`http://x/admin/clients?q=${"a".repeat(500)}`)).q).toHaveLength(100);
    });

    it("writes a client.list audit row with the search, page and count", async () => {
      await listClients({ q: "", page: 2 }, caller);
      let row = await lastAudit("client.list");
      expect(row!.details).toEqual({ q: "", page: 2, count: 9, total: 34 });
      await listClients({ q: "Paging", page: 2 }, caller);
      row = await lastAudit("client.list");
      expect(row).toMatchObject({ actorId: admin.id, actorEmail: admin.email, tableName: "profiles", ipAddress: info.ip, userAgent: info.userAgent });
      expect(row!.details).toEqual({ q: "Paging", kinds: ["name"], count: 25, more: true });
    });
  });

  describe("client details and reveals", () => {
    let withSsn: string;
    let withoutSsn: string;
    let legacyApp: string;
    let brokenApp: string;
    let account: string;
    let legacyAccount: string;
    let brokenAccount: string;

    beforeAll(async () => {
      withSsn = await addApplication("c-alice", encryptField("123456789", ENCRYPTION_PURPOSES.ssn), new Date("2026-01-02T10:00:00Z"));
      withoutSsn = await addApplication("c-alice", null, new Date("2026-01-03T10:00:00Z"));
      legacyApp = await addApplication("c-bob", "987654321");
      brokenApp = await addApplication("c-bob", "not-a-ciphertext");
      account = await addBankAccount(
        "c-alice",
        withSsn,
        encryptField("000123456789", ENCRYPTION_PURPOSES.accountNumber),
        encryptField("021000021", ENCRYPTION_PURPOSES.routingNumber),
      );
      legacyAccount = await addBankAccount("c-bob", legacyApp, "4444333322", "011000015", "3322", "15");
      // A ciphertext of the account number put in the routing column does not decrypt (purpose is bound).
      brokenAccount = await addBankAccount(
        "c-bob",
        brokenApp,
        "enc:v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        encryptField("021000021", ENCRYPTION_PURPOSES.accountNumber),
      );
      await db().insert(loanDocuments).values({
        applicationId: withSsn,
        userId: "c-alice",
        documentType: "utility_bill",
        fileName: "utility_bill.pdf",
        filePath: `c-alice/${withSsn}/utility_bill.pdf`,
        fileSize: 2048,
        mimeType: "application/pdf",
      });
    });

    it("shows profile, masked bank accounts, applications and documents, without any ciphertext", async () => {
      const detail = await getClientDetail("c-alice", caller);
      expect(detail).not.toBeNull();
      expect(detail!.profile).toMatchObject({ fullName: "Alice Anderson", phone: "3025550111", city: "Dover", state: "DE", zipCode: "19901" });
      expect(detail!.bankAccounts).toEqual([
        expect.objectContaining({ id: account, bankName: "First Bank", accountNumberLast4: "6789", routingNumberLast2: "21", isPrimary: false, isVerified: false }),
      ]);
      expect(detail!.applications.map((a) => [a.id, a.hasSsn])).toEqual([
        [withoutSsn, false],
        [withSsn, true],
      ]);
      expect(detail!.documents).toEqual([expect.objectContaining({ fileName: "utility_bill.pdf", documentType: "utility_bill", fileSize: 2048 })]);
      const text = JSON.stringify(detail);
      expect(text).not.toContain("enc:v");
      expect(text).not.toContain("000123456789");
      expect(text).not.toContain("123456789\"");
      expect(await getClientDetail("c-nobody", caller)).toBeNull();
    });

    it("writes a client.view audit row with the client's id", async () => {
      await getClientDetail("c-alice", caller);
      const row = await lastAudit("client.view");
      expect(row).toMatchObject({ actorId: admin.id, tableName: "profiles", recordId: "c-alice", ipAddress: info.ip });
      expect(row!.details).toEqual({ bankAccounts: 1, applications: 2, documents: 1 });
    });

    it("reveals exactly the one SSN asked for and records it (ssn.reveal)", async () => {
      const result = await revealSensitiveValue({ kind: "ssn", id: withSsn }, caller);
      expect(result).toEqual({ status: 200, body: { value: "123456789" } });
      const row = await lastAudit("ssn.reveal");
      expect(row).toMatchObject({ actorId: admin.id, tableName: "loan_applications", recordId: withSsn, ipAddress: info.ip, userAgent: info.userAgent });
      expect(row!.details).toEqual({ dataType: "ssn", clientId: "c-alice", result: "revealed" });
    });

    it("reveals the account number or the routing number alone (bank.reveal)", async () => {
      expect(await revealSensitiveValue({ kind: "account_number", id: account }, caller)).toEqual({ status: 200, body: { value: "000123456789" } });
      let row = await lastAudit("bank.reveal");
      expect(row).toMatchObject({ tableName: "bank_accounts", recordId: account });
      expect(row!.details).toMatchObject({ dataType: "account_number", result: "revealed" });

      expect(await revealSensitiveValue({ kind: "routing_number", id: account }, caller)).toEqual({ status: 200, body: { value: "021000021" } });
      row = await lastAudit("bank.reveal");
      expect(row!.details).toMatchObject({ dataType: "routing_number", result: "revealed" });
    });

    it("answers 'No SSN Available' for an application without an SSN (and records the attempt)", async () => {
      const result = await revealSensitiveValue({ kind: "ssn", id: withoutSsn }, caller);
      expect(result).toEqual({ status: 404, body: { title: "No SSN Available", message: "This application does not have an SSN on file" } });
      expect((await lastAudit("ssn.reveal"))!.details).toMatchObject({ result: "none" });
    });

    it("returns legacy plaintext digits (6 or more) as they are", async () => {
      expect(await revealSensitiveValue({ kind: "account_number", id: legacyAccount }, caller)).toEqual({
        status: 200,
        body: { value: "4444333322", legacy: true },
      });
      expect(await revealSensitiveValue({ kind: "ssn", id: legacyApp }, caller)).toEqual({ status: 200, body: { value: "987654321", legacy: true } });
      expect((await lastAudit("ssn.reveal"))!.details).toMatchObject({ result: "legacy_plaintext" });
    });

    it("answers 'Failed to decrypt' when a value neither decrypts nor is plain digits", async () => {
      const expected = { status: 422, body: { title: "Decryption Error", message: "Failed to decrypt" } };
      expect(await revealSensitiveValue({ kind: "account_number", id: brokenAccount }, caller)).toEqual(expected);
      expect(await revealSensitiveValue({ kind: "routing_number", id: brokenAccount }, caller)).toEqual(expected);
      expect(await revealSensitiveValue({ kind: "ssn", id: brokenApp }, caller)).toEqual(expected);
      expect((await lastAudit("bank.reveal"))!.details).toMatchObject({ result: "decrypt_failed" });
    });

    it("refuses a bad body and an unknown record", async () => {
      expect((await revealSensitiveValue({ kind: "password", id: account }, caller)).status).toBe(400);
      expect((await revealSensitiveValue({ kind: "ssn", id: "not-a-uuid" }, caller)).status).toBe(400);
      expect((await revealSensitiveValue(null, caller)).status).toBe(400);
      expect(await revealSensitiveValue({ kind: "ssn", id: randomUUID() }, caller)).toEqual({ status: 404, body: REVEAL_MESSAGES.notFound });
      // An SSN request with a bank account id finds no application: ids are not interchangeable.
      expect((await revealSensitiveValue({ kind: "ssn", id: account }, caller)).status).toBe(404);
    });

    it("does not return the value when its audit row cannot be written", async () => {
      const before = await db().select().from(auditLog).where(and(eq(auditLog.action, "ssn.reveal"), eq(auditLog.recordId, withSsn)));
      const result = await revealSensitiveValue({ kind: "ssn", id: withSsn }, caller, {
        audit: async () => {
          throw new Error("disk full");
        },
      });
      expect(result.status).toBe(500);
      expect(JSON.stringify(result)).not.toContain("123456789");
      const after = await db().select().from(auditLog).where(and(eq(auditLog.action, "ssn.reveal"), eq(auditLog.recordId, withSsn)));
      expect(after).toHaveLength(before.length);
    });
  });

  describe("POST /api/admin/reveal", () => {
    const context: LoadContext = { cspNonce: "", clientIp: "203.0.113.10", secure: false };
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      revealAction({
        request: new Request("http://localhost:3000/api/admin/reveal", {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers },
        }),
        context,
        params: {},
      } as never);

    it("answers a visitor with 401 JSON, never a value", async () => {
      const res = (await post({ kind: "ssn", id: randomUUID() })) as Response;
      expect(res.status).toBe(401);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toMatchObject({ title: "Access Denied" });
    });

    it("refuses a cross-site post", async () => {
      await expect(post({ kind: "ssn", id: randomUUID() }, { origin: "https://evil.example" })).rejects.toMatchObject({ init: { status: 403 } });
    });
  });

  describe("applicants only, with their latest application's contact details (issue 18 item 10)", () => {
    it("neither lists nor shows a staff account", async () => {
      await addClient("c-staff", "Stella Staff", "stella.staff@example.com");
      await grantStaffRole(db(), "c-staff", "admin");
      expect((await listClients({ q: "stella", page: 1 }, caller)).clients).toEqual([]);
      expect((await listClients({ q: "", page: 1 }, caller)).clients.map((c) => c.id)).not.toContain("c-staff");
      expect(await getClientDetail("c-staff", caller)).toBeNull();
    });

    it("gives the newest application's phone and address; none without an application", async () => {
      await addClient("c-erin", "Erin Empty", "erin@example.com");
      expect((await getClientDetail("c-erin", caller))!.latestApplicationContact).toBeNull();
      await addApplication("c-erin", null, new Date("2026-01-02T10:00:00Z"));
      const newest = await addApplication("c-erin", null, new Date("2026-03-04T10:00:00Z"));
      await db().update(loanApplications).set({ phone: "3025550123", addressLine1: "9 New Road", addressLine2: "Apt 2" }).where(eq(loanApplications.id, newest));
      const detail = await getClientDetail("c-erin", caller);
      expect(detail!.profile.phone).toBeNull();
      expect(detail!.latestApplicationContact).toEqual({
        phone: "3025550123",
        address: "9 New Road, Apt 2",
        city: "Wilmington",
        state: "DE",
        zipCode: "19801",
        submittedAt: "2026-03-04T10:00:00.000Z",
      });
    });
  });
});
