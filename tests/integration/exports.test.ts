import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { writeAudit } from "~/server/platform/audit/audit.server";
import { auditLog, bankAccounts, loanApplications } from "~/server/platform/db/schema.server";
import { csvField, csvRow } from "~/server/staff/csv.server";
import { APPLICATION_EXPORT_COLUMNS, AUDIT_EXPORT_COLUMNS, applicationsCsvStream, auditCsvStream, exportResponse, keysetCsvStream, MASKED_SSN } from "~/server/staff/exports.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicant, seedStaff } from "../helpers/seed";

/**
 * Export CSV (issue 22) against PGlite: RFC 4180 quoting and formula neutralisation, the masks (the
 * SSN and bank numbers seeded here never appear in the file), 2,500 rows read in batches coming out
 * complete and in order (with ties on submitted_at down to the microsecond), a stream that reads
 * nothing until it is pulled, and the audit row written before the first byte.
 */

setUpTestConfig("exports", { APP_SECRET: "x".repeat(48) });

const admin: AuditActor = { id: "exp-admin", name: "Ada Admin", email: "ada.exports@example.com" };
const applicantId = "exp-applicant";
const RANGE = { from: "2026-02-01", to: "2026-02-28" };
const FULL_SSN_CIPHER = "123456789"; // stands in for the ciphertext column: it must never be selected
const ACCOUNT_NUMBER = "998877665544";
const ROUTING_NUMBER = "021000021";

/** Parses our CSV (quoted fields, doubled quotes, CRLF) back into rows, for assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\r" && text[i + 1] === "\n") {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

describe("CSV fields", () => {
  it("quotes only what needs it and doubles quotes (RFC 4180)", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('O"Brien, Jr')).toBe('"O""Brien, Jr"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
    expect(csvField(42)).toBe("42");
    expect(csvRow(["a", "b,c"])).toBe('a,"b,c"\r\n');
  });

  it("neutralises spreadsheet formulas (= + - @ TAB CR) with a leading apostrophe", () => {
    expect(csvField("=HYPERLINK(\"http://evil\")")).toBe("\"'=HYPERLINK(\"\"http://evil\"\")\"");
    expect(csvField("+1-555")).toBe("'+1-555");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tx")).toBe("'\tx");
    expect(csvField("\rx")).toBe("\"'\rx\"");
    expect(csvField("a=b")).toBe("a=b");
  });
});

describe("a pull-based stream", () => {
  it("reads the next batch only when the consumer asks for it", async () => {
    let batches = 0;
    const stream = keysetCsvStream<{ n: number }, number>(
      ["N"],
      async (after) => {
        batches++;
        const start = (after ?? 0) + 1;
        const rows = start > 25 ? [] : Array.from({ length: Math.min(10, 26 - start) }, (_, i) => ({ n: start + i }));
        return { rows, lines: rows.map((r) => [r.n]) };
      },
      (row) => row.n,
      10,
    );
    const reader = stream.getReader();
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toBe(0);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("N\r\n");
    expect(batches).toBe(0);
    await reader.read();
    expect(batches).toBe(1);
    await reader.read();
    await reader.read();
    expect(batches).toBe(3);
    expect((await reader.read()).done).toBe(true);
  });
});

describe("exports on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;

  beforeAll(async () => {
    await seedStaff(db(), { id: admin.id, name: admin.name, email: admin.email, role: "admin" });
    await seedApplicant(db(), { id: applicantId, name: "Applicant", email: "exp.applicant@example.com" });
    // 2,500 applications in February, seven to each microsecond-distinct instant (ties broken by id),
    // in one INSERT ... SELECT generate_series.
    await db().execute(sql`
      insert into loan_applications (user_id, loan_type, requested_amount_cents, desired_rate_milli, loan_duration, purpose,
        first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, ssn_encrypted,
        employment_status, employer_name, monthly_income_cents, submitted_at)
      select ${applicantId}, 'personal', 2500000, 9500, 36, 'Consolidating two credit cards into one payment',
        'Bulk', 'Row' || g, '1985-02-03', 'bulk' || g || '@example.com', '3025550199', '1 Main Street', 'Wilmington', 'DE', '19801', null,
        'full-time', 'Acme', 800000, timestamptz '2026-02-03 10:00:00.123456+00' + (g / 7) * interval '1 microsecond'
      from generate_series(1, 2500) g`);
    // One with an SSN on file, a bank account, a formula and quotes in its names, a reviewer and reasons.
    const [special] = await db()
      .insert(loanApplications)
      .values(
        applicationRow(applicantId, {
          firstName: "=HYPERLINK(\"http://evil.example\")",
          lastName: 'O"Brien, Jr',
          ssnEncrypted: FULL_SSN_CIPHER,
          status: "denied",
          reviewedAt: new Date("2026-02-20T10:00:00Z"),
          reviewedBy: admin.id,
          assignedTo: admin.id,
          decisionReasons: ["Insufficient income", "Other: -see notes"],
          submittedAt: new Date("2026-02-15T08:00:00Z"),
        }),
      )
      .returning({ id: loanApplications.id });
    await db().insert(bankAccounts).values({
      userId: applicantId,
      applicationId: special!.id,
      accountHolderName: "Jane Doe",
      bankName: "First Bank",
      accountNumber: ACCOUNT_NUMBER,
      routingNumber: ROUTING_NUMBER,
      accountNumberLast4: "5544",
      routingNumberLast2: "21",
      isPrimary: true,
    });
    // Outside the range: never exported.
    await db().insert(loanApplications).values(applicationRow(applicantId, { firstName: "Outside", submittedAt: new Date("2026-03-01T00:00:00Z") }));
  });

  it("exports every application of the range once, in order, across batches", async () => {
    const text = await new Response(applicationsCsvStream(RANGE, db(), 1000)).text();
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...APPLICATION_EXPORT_COLUMNS]);
    const data = rows.slice(1);
    expect(data).toHaveLength(2501);
    expect(new Set(data.map((r) => r[0])).size).toBe(2501);
    const expectedOrder = await db()
      .select({ id: loanApplications.id })
      .from(loanApplications)
      .where(sql`${loanApplications.submittedAt} >= '2026-02-01' and ${loanApplications.submittedAt} < '2026-03-01'`)
      .orderBy(loanApplications.submittedAt, loanApplications.id);
    expect(data.map((r) => r[0])).toEqual(expectedOrder.map((r) => r.id));
    expect(text).not.toContain("Outside");
  });

  it("masks the SSN and bank numbers and never carries the stored values; neutralises formulas", async () => {
    const text = await new Response(applicationsCsvStream(RANGE, db())).text();
    expect(text).not.toContain(FULL_SSN_CIPHER);
    expect(text).not.toContain(ACCOUNT_NUMBER);
    expect(text).not.toContain(ROUTING_NUMBER);
    const row = parseCsv(text).find((r) => r[6] === 'O"Brien, Jr')!;
    const cell = (name: (typeof APPLICATION_EXPORT_COLUMNS)[number]) => row[APPLICATION_EXPORT_COLUMNS.indexOf(name)];
    expect(cell("First Name")).toBe("'=HYPERLINK(\"http://evil.example\")");
    expect(cell("SSN")).toBe(MASKED_SSN);
    expect(cell("Bank Account")).toBe("****5544");
    expect(cell("Routing Number")).toBe("*******21");
    expect(cell("Status")).toBe("Denied");
    expect(cell("Loan Type")).toBe("Personal Loan");
    expect(cell("Requested Amount")).toBe("25000.00");
    expect(cell("Assigned To")).toBe("Ada Admin");
    expect(cell("Reviewed At")).toBe("2026-02-20T10:00:00.000Z");
    expect(cell("Decision Reasons")).toBe("Insufficient income; Other: -see notes");
    const bulk = parseCsv(text)[1]!;
    expect(bulk[APPLICATION_EXPORT_COLUMNS.indexOf("SSN")]).toBe("");
    expect(bulk[APPLICATION_EXPORT_COLUMNS.indexOf("Bank Account")]).toBe("");
  });

  it("exports the audit log of the range with the chain columns, in id order", async () => {
    for (let i = 0; i < 5; i++) await writeAudit(db(), { actor: admin, action: "reports.view", details: { n: i, note: "=cmd|' /C calc'!A0" } });
    const today = new Date().toISOString().slice(0, 10);
    const text = await new Response(await auditCsvStream({ from: today, to: today }, db(), 2)).text();
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...AUDIT_EXPORT_COLUMNS]);
    const data = rows.slice(1);
    expect(data.length).toBeGreaterThanOrEqual(5);
    const ids = data.map((r) => Number(r[0]));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const last = data.at(-1)!;
    expect(last[4]).toBe("reports.view");
    expect(JSON.parse(last[8]!)).toEqual({ n: 4, note: "=cmd|' /C calc'!A0" });
    // The hash chain is sealed at commit: every exported row has its sequence and hash.
    expect(data.every((r) => /^\d+$/.test(r[9]!) && /^[0-9a-f]{64}$/.test(r[10]!))).toBe(true);
  });

  it("exports exactly the range's entries in id order, an entry numbered after later ones included (decision 0051)", async () => {
    // January 2026: entries before, inside (both edges) and after a week, then entries stamped inside
    // the week but numbered after all of them (a transaction open across the week's end, a restore).
    const insert = (times: string) =>
      db().execute(sql.raw(`insert into audit_log (actor_id, actor_name, actor_email, action, table_name, details, created_at)
        select 'exp-admin', 'Ada Admin', 'ada.exports@example.com', 'reports.view', 'loan_applications', jsonb_build_object('i', i), t
        from unnest(array[${times}]::timestamptz[]) with ordinality as x(t, i)`));
    await insert(`'2026-01-04T23:59:59.999Z', '2026-01-05T00:00:00Z', '2026-01-05T00:00:00Z', '2026-01-07T13:30:00Z', '2026-01-11T23:59:59.999Z', '2026-01-12T00:00:00Z'`);
    await db().execute(sql.raw(`insert into audit_log (actor_id, action, created_at) select null, 'system.tick', '2026-01-08T00:00:00Z'::timestamptz + i * interval '1 minute' from generate_series(1, 25) i`));
    await insert(`'2026-01-20T10:00:00Z', '2026-01-06T08:00:00Z', '2026-01-30T10:00:00Z', '2026-01-11T22:00:00Z'`);
    const direct = async (from: string, to: string) =>
      (
        (await db().execute(
          sql.raw(`select id from audit_log where created_at >= '${from}T00:00:00Z' and created_at < ('${to}T00:00:00Z'::timestamptz + interval '1 day') order by id`),
        )) as unknown as { rows: { id: string | number }[] }
      ).rows.map((r) => Number(r.id));
    for (const [from, to] of [
      ["2026-01-05", "2026-01-11"],
      ["2026-01-12", "2026-01-12"],
      ["2026-01-13", "2026-01-19"],
      ["2025-12-01", "2026-01-31"],
    ] as const) {
      const exported = parseCsv(await new Response(await auditCsvStream({ from, to }, db(), 4)).text())
        .slice(1)
        .map((r) => Number(r[0]));
      expect(exported, `${from}..${to}`).toEqual(await direct(from, to));
    }
    expect((await direct("2026-01-05", "2026-01-11")).length).toBe(4 + 25 + 2);
  });

  it("audits an export before streaming, and names the file after the range", async () => {
    const response = await exportResponse("applications", RANGE, { actor: admin, request: { ip: "203.0.113.7", userAgent: "vitest" } }, "GET", db());
    const [row] = await db().select().from(auditLog).where(eq(auditLog.action, "applications.export"));
    expect(row).toMatchObject({ actorId: admin.id, details: { from: RANGE.from, to: RANGE.to }, ipAddress: "203.0.113.7" });
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="applications-2026-02-01-to-2026-02-28.csv"');
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(response.headers.get("content-length")).toBeNull();
    await response.body?.cancel();
    const audit = await exportResponse("audit", RANGE, { actor: admin, request: {} }, "HEAD", db());
    expect(audit.body).toBeNull();
    expect(await db().select({ id: auditLog.id }).from(auditLog).where(inArray(auditLog.action, ["audit.export"]))).toHaveLength(1);
  });
});
