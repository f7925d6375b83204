import fs from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { SANCTIONS_DECISION_MESSAGES } from "~/domain/validation/sanctions-decision";
import { screeningSubjectsPage, applicationScreeningSubject, sanctionsDecisionAction } from "~/server/applications/index.server";
import { loadAdminApplication } from "~/server/applications/staff-application-page.server";
import { submitApplication } from "~/server/applications/submit.server";
import { parseSubmission } from "~/server/applications/upload-parser.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { auditLog, emailOutbox, loanApplications, sanctionsMatches, sanctionsScreenings } from "~/server/platform/db/schema.server";
import { createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import {
  loadSanctionsLists,
  rescreenAll,
  sanctionsClearance,
  sanctionsLoadCommand,
  screenApplicant,
  screenForFunding,
  type OfacFile,
} from "~/server/sanctions/index.server";
import { applicationForm, validFields, validFiles } from "../helpers/applications";
import { applicationRow } from "../helpers/application-rows";
import { seedApplicant, seedOffer, seedStaff } from "../helpers/seed";
import { giveConsent, signOffer } from "~/server/offers/index.server";
import { setUpTestConfig, tempDirMaker } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * Sanctions screening in the product: the applicant is screened at submission (no list loaded: a
 * screening against nothing, which is not "clear"), potential matches are kept per list entry, staff
 * Clear Match (not flagged again until the entry changes) or Confirm Match (denied with a notice that
 * names no list, frozen, every admin told), every open application is screened again after a load,
 * and a screening never throws on a name.
 */

const dataDir = setUpTestConfig("sanctions-flow", {
  APP_SECRET: "s".repeat(48),
  PUBLIC_URL: "https://loans.example.com",
  LENDER_NOTIFY_EMAIL: "lender@example.com",
});

const fixtures = path.resolve(import.meta.dirname, "../fixtures/sanctions");
const sdnPaths = ["sdn.csv", "add.csv", "alt.csv"].map((name) => path.join(fixtures, "sdn", name));
const consolidatedPaths = ["cons_prim.csv", "cons_add.csv", "cons_alt.csv"].map((name) => path.join(fixtures, "consolidated", name));
const filesAt = (paths: string[]): OfacFile[] => paths.map((file) => ({ name: path.basename(file), content: fs.readFileSync(file) }));
/** The fixture SDN list with Karimov's date of birth changed: his entry's fingerprint changes, no other's. */
const sdnWithKarimovChanged = (): OfacFile[] =>
  filesAt(sdnPaths).map((file) => (file.name === "sdn.csv" ? { name: file.name, content: file.content.toString("utf8").replace("DOB 14 Mar 1968", "DOB 15 Mar 1968") } : file));

/** Words a notice to the applicant must never hold: they would tell them which list they matched. */
const LIST_WORDS = /sanction|ofac|sdn|specially designated|consolidated|treasury|watch ?list/i;

function decisionRequest(fields: Record<string, string>): Request {
  return new Request("http://localhost/admin/applications/x/sanctions", { method: "POST", body: new URLSearchParams(fields) });
}

describe.each(testTargets)("sanctions screening of applications on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  const staff = {} as Record<"admin" | "otherAdmin" | "officer", AuditActor>;
  let storage: DocumentStorage;
  let n = 0;

  beforeAll(async () => {
    storage = createLocalStorage(path.join(dataDir, `storage-${target}`));
    for (const [key, role, name] of [
      ["admin", "admin", "Ada Admin"],
      ["otherAdmin", "admin", "Abe Admin"],
      ["officer", "loan_officer", "Olive Officer"],
    ] as const) {
      const id = `scr-${key}-${target}`;
      const email = `scr-${key}-${target}@example.com`;
      await seedStaff(db(), { id, name, email, role });
      staff[key] = { id, name, email };
    }
  });

  /** Submits a whole application through the server's submission, as the wizard does. */
  async function submit(fields: Partial<Record<string, string>>): Promise<string> {
    n += 1;
    const applicant = await seedApplicant(db(), { id: `scr-applicant-${target}-${n}`, email: `scr.applicant${n}.${target}@example.com`, name: "Applicant" });
    const request = new Request("http://localhost/api/applications", { method: "POST", body: applicationForm({ ...validFields, ...fields } as Record<string, string>, validFiles()) });
    const parsed = await parseSubmission(request);
    try {
      const { applicationId } = await submitApplication({ id: applicant.id, name: applicant.name, email: applicant.email }, parsed, { db: db(), storage });
      return applicationId;
    } finally {
      await parsed.dispose?.();
    }
  }

  /** An application row written directly (for the cases that are not about submission). */
  async function application(columns: Parameters<typeof applicationRow>[1] = {}): Promise<string> {
    n += 1;
    const applicant = await seedApplicant(db(), { id: `scr-row-${target}-${n}`, email: `scr.row${n}.${target}@example.com` });
    const [row] = await db().insert(loanApplications).values(applicationRow(applicant.id, columns)).returning({ id: loanApplications.id });
    return row!.id;
  }

  const matchesOf = (applicationId: string) => db().select().from(sanctionsMatches).where(eq(sanctionsMatches.applicationId, applicationId));
  const screeningsOf = (applicationId: string) => db().select().from(sanctionsScreenings).where(eq(sanctionsScreenings.applicationId, applicationId));
  const state = async (applicationId: string) => (await sanctionsClearance(applicationId, db())).state;
  const decide = (applicationId: string, actor: AuditActor, fields: Record<string, string>) =>
    sanctionsDecisionAction(decisionRequest(fields), applicationId, { actor, request: {} }, db());

  it("with no list loaded, a submission is screened against nothing, is not refused, and is not clear", async () => {
    const id = await submit({ firstName: "Rustam", lastName: "Karimov", middleInitial: "" });
    expect(await screeningsOf(id)).toMatchObject([{ trigger: "submission", lists: [], matchCount: 0 }]);
    expect(await matchesOf(id)).toEqual([]);
    expect(await sanctionsClearance(id, db())).toMatchObject({ state: "not_screened", openMatches: 0 });
    expect((await sanctionsClearance(id, db())).screenedAt).toBeInstanceOf(Date);
  });

  it("after a load, a listed name is a potential match with its entry and a clean name is clear", async () => {
    await loadSanctionsLists(db(), filesAt([...sdnPaths, ...consolidatedPaths]), "2026-12-01");
    const listed = await submit({ firstName: "Rustam", lastName: "Karimov", middleInitial: "", dateOfBirth: "1968-03-14" });
    const clean = await submit({ firstName: "Jane", lastName: "Doe-Smith" });

    const [screening] = await screeningsOf(listed);
    expect(screening).toMatchObject({ trigger: "submission", matchCount: 1, threshold: 0.9 });
    expect((screening!.lists as { list: string; publishedOn: string }[]).map((l) => [l.list, l.publishedOn])).toEqual([
      ["Consolidated", "2026-12-01"],
      ["SDN", "2026-12-01"],
    ]);
    const [match] = await matchesOf(listed);
    expect(match).toMatchObject({ status: "open", screeningId: screening!.id, decidedBy: null });
    expect(match!.match).toMatchObject({
      list: "SDN",
      entityNumber: 1001,
      primaryName: "KARIMOV, Rustam Bakhtiyorovich",
      matchedName: "KARIMOV, Rustam",
      matchedAs: "aka",
      entityType: "individual",
      programs: ["SDGT", "IRGC"],
      dateOfBirthAgrees: true,
      countryAgrees: false,
    });
    expect(match!.entryFingerprint).toBe(match!.match.fingerprint);
    expect(await sanctionsClearance(listed, db())).toMatchObject({ state: "potential_match", openMatches: 1 });

    expect(await matchesOf(clean)).toEqual([]);
    expect(await state(clean)).toBe("clear");

    // The staff page shows the section with the entry.
    const page = await loadAdminApplication(listed, { actor: staff.officer, request: {} }, db());
    expect(page!.sanctions).toMatchObject({
      state: "potential_match",
      lastScreening: { trigger: "submission", matchCount: 1, lists: [{ list: "Consolidated", publishedOn: "2026-12-01" }, { list: "SDN", publishedOn: "2026-12-01" }] },
      matches: [{ status: "open", match: { entityNumber: 1001, list: "SDN" }, decidedByName: null }],
    });
  });

  it("Clear Match: refused without a reason of 10 characters; cleared with one, audited with the fingerprint, not flagged again", async () => {
    const id = await application({ firstName: "Rustam", lastName: "Karimov" });
    await screenApplicant(db(), (await applicationScreeningSubject(id, db()))!, "submission");
    const [match] = await matchesOf(id);

    const short = await decide(id, staff.officer, { intent: "clear-match", matchId: match!.id, reason: "too short" });
    expect(short).toMatchObject({ status: 400, body: { ok: false, intent: "clear-match", fieldErrors: { reason: [SANCTIONS_DECISION_MESSAGES.reasonTooShort] } } });
    const badId = await decide(id, staff.officer, { intent: "clear-match", matchId: "not-an-id", reason: "A different person entirely." });
    expect(badId).toMatchObject({ status: 400, body: { fieldErrors: { matchId: [SANCTIONS_DECISION_MESSAGES.match] } } });
    const unknown = await decide(id, staff.officer, { intent: "forget-it", matchId: match!.id, reason: "A different person entirely." });
    expect(unknown.status).toBe(400);
    const elsewhere = await decide(await application(), staff.officer, { intent: "clear-match", matchId: match!.id, reason: "A different person entirely." });
    expect(elsewhere).toMatchObject({ status: 404, body: { toast: { description: SANCTIONS_DECISION_MESSAGES.matchNotFound } } });

    const reason = "Date of birth and nationality differ; the applicant is a US-born citizen.";
    const cleared = await decide(id, staff.officer, { intent: "clear-match", matchId: match!.id, reason });
    expect(cleared).toMatchObject({ status: 200, body: { ok: true, intent: "clear-match" } });
    expect((await matchesOf(id))[0]).toMatchObject({ status: "cleared", decidedBy: staff.officer.id, reason });
    expect(await state(id)).toBe("clear");
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "sanctions.clear"), eq(auditLog.recordId, match!.id)));
    expect(audit!.details).toMatchObject({ applicationId: id, fingerprint: match!.entryFingerprint, list: "SDN", entityNumber: 1001, reason });

    // Screened again against the same publication: the cleared entry is not flagged again.
    const again = await screenApplicant(db(), (await applicationScreeningSubject(id, db()))!, "funding");
    expect(again).toMatchObject({ openMatches: 0, newMatches: 0 });
    expect(await matchesOf(id)).toHaveLength(1);
    expect(await screenForFunding(db(), (await applicationScreeningSubject(id, db()))!)).toMatchObject({ state: "clear", openMatches: 0 });
    expect((await screeningsOf(id)).map((s) => s.trigger).sort()).toEqual(["funding", "funding", "submission"]);

    // Deciding it again is a conflict, not a second decision.
    const twice = await decide(id, staff.admin, { intent: "confirm-match", matchId: match!.id, reason: "Second thoughts, long enough." });
    expect(twice).toMatchObject({ status: 409, body: { toast: { description: SANCTIONS_DECISION_MESSAGES.decided } } });
  });

  it("two staff members clearing the same match at once: one decision, one audit row", async () => {
    const id = await application({ firstName: "Rustam", lastName: "Karimov" });
    await screenApplicant(db(), (await applicationScreeningSubject(id, db()))!, "submission");
    const [match] = await matchesOf(id);
    const answers = await Promise.all([
      decide(id, staff.officer, { intent: "clear-match", matchId: match!.id, reason: "Officer: not the listed person." }),
      decide(id, staff.admin, { intent: "clear-match", matchId: match!.id, reason: "Admin: not the listed person." }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "sanctions.clear"), eq(auditLog.recordId, match!.id)));
    expect(audits).toHaveLength(1);
    const [row] = await matchesOf(id);
    const winner = answers[0]!.status === 200 ? staff.officer : staff.admin;
    expect(row).toMatchObject({ status: "cleared", decidedBy: winner.id });
  });

  it("a screening that fails does not lose the submission: the application is kept, not screened", async () => {
    await db().execute(sql`alter table sanctions_screenings add constraint test_block_submission check (trigger <> 'submission') not valid`);
    try {
      const id = await submit({ firstName: "Rustam", lastName: "Karimov", middleInitial: "" });
      expect(await db().select({ id: loanApplications.id }).from(loanApplications).where(eq(loanApplications.id, id))).toHaveLength(1);
      expect(await screeningsOf(id)).toEqual([]);
      expect(await state(id)).toBe("not_screened");
    } finally {
      await db().execute(sql`alter table sanctions_screenings drop constraint test_block_submission`);
    }
  });

  it("Confirm Match on an approved application: it keeps its offer's status, but its clearance is confirmed for good", async () => {
    const { application: app, owner } = await seedOffer(db(), { admin: staff.admin, application: { firstName: "Rustam", lastName: "Karimov" } });
    await screenApplicant(db(), (await applicationScreeningSubject(app.id, db()))!, "list_load");
    const [match] = await matchesOf(app.id);
    const confirmed = await decide(app.id, staff.admin, { intent: "confirm-match", matchId: match!.id, reason: "Confirmed against the list entry." });
    expect(confirmed.status).toBe(200);
    const [row] = await db().select({ status: loanApplications.status }).from(loanApplications).where(eq(loanApplications.id, app.id));
    expect(row!.status).toBe("approved");
    expect(await screenForFunding(db(), (await applicationScreeningSubject(app.id, db()))!)).toMatchObject({ state: "confirmed" });
    // The open offer can no longer be signed, and the refusal names no list.
    await giveConsent(app.id, { actor: owner, request: {} }, db());
    const refused = await signOffer(app.id, { kind: "typed", name: "Rustam Karimov" }, { actor: owner, request: {} }, { db: db(), storage }).then(
      () => null,
      (error: unknown) => error as { status: number; message: string },
    );
    expect(refused).toMatchObject({ status: 409, message: "This offer can no longer be signed. Send us a message if you have questions." });
  });

  it("Confirm Match: the application is denied with a notice that names no list, frozen, and every admin is e-mailed", async () => {
    const id = await submit({ firstName: "Rustam", lastName: "Karimov", middleInitial: "", dateOfBirth: "1968-03-14" });
    const [match] = await matchesOf(id);
    const outboxBefore = (await db().select({ id: emailOutbox.id }).from(emailOutbox)).map((r) => r.id);

    const confirmed = await decide(id, staff.officer, { intent: "confirm-match", matchId: match!.id, reason: "Name, date of birth and alias all agree." });
    expect(confirmed).toMatchObject({ status: 200, body: { ok: true, intent: "confirm-match" } });
    expect(await sanctionsClearance(id, db())).toMatchObject({ state: "confirmed" });
    const [app] = await db().select().from(loanApplications).where(eq(loanApplications.id, id));
    expect(app).toMatchObject({ status: "denied", reviewedBy: staff.officer.id, decisionReasons: [] });
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "sanctions.confirm"), eq(auditLog.recordId, match!.id)));
    expect(audit!.details).toMatchObject({ applicationId: id, fingerprint: match!.entryFingerprint });

    const mail = (await db().select().from(emailOutbox)).filter((m) => !outboxBefore.includes(m.id));
    const toAdmins = mail.filter((m) => m.template === "sanctions-match-confirmed");
    expect(toAdmins.map((m) => m.toAddress).sort()).toEqual([staff.admin.email, staff.otherAdmin.email].sort());
    for (const m of toAdmins) {
      expect(m.textBody).toContain("Rustam Karimov");
      expect(m.textBody).toContain(`https://loans.example.com/admin/applications/${id}`);
      // The applicant's name and nothing else of theirs: no date of birth, no e-mail, no address.
      expect(m.textBody).not.toContain("1968");
      expect(m.textBody).not.toContain(validFields.email!);
      expect(m.textBody).not.toContain(validFields.addressLine1!);
    }
    const toApplicant = mail.filter((m) => m.template !== "sanctions-match-confirmed");
    expect(toApplicant.map((m) => m.template)).toEqual(["application-denied"]);
    expect(toApplicant[0]!.subject + toApplicant[0]!.textBody + (toApplicant[0]!.htmlBody ?? "")).not.toMatch(LIST_WORDS);

    // Frozen: no further decision on any of its matches.
    await screenApplicant(db(), (await applicationScreeningSubject(id, db()))!, "funding");
    const refused = await decide(id, staff.admin, { intent: "clear-match", matchId: match!.id, reason: "Trying to undo the confirmation." });
    expect(refused).toMatchObject({ status: 409, body: { toast: { description: SANCTIONS_DECISION_MESSAGES.frozen } } });
    expect(await screenForFunding(db(), (await applicationScreeningSubject(id, db()))!)).toMatchObject({ state: "confirmed" });
  });

  it("a list load screens every open application again, flags a changed entry again, and leaves decided applications alone", async () => {
    const cleared = await application({ firstName: "Rustam", lastName: "Karimov" });
    await screenApplicant(db(), (await applicationScreeningSubject(cleared, db()))!, "submission");
    const [old] = await matchesOf(cleared);
    await decide(cleared, staff.officer, { intent: "clear-match", matchId: old!.id, reason: "Not the listed person, checked." });
    const withdrawn = await application({ firstName: "Rustam", lastName: "Karimov", status: "withdrawn", withdrawnAt: new Date() });
    const underReview = await application({ firstName: "Hans-Jürgen", lastName: "Müller", status: "under_review" });

    await loadSanctionsLists(db(), sdnWithKarimovChanged(), "2026-12-03");
    const subjectIds: string[] = [];
    const result = await rescreenAll(db(), async (after, limit) => {
      const page = await screeningSubjectsPage(db(), after, limit);
      subjectIds.push(...page.subjects.map((s) => s.applicationId));
      return page;
    }, new Date(), 3);

    // Every open application, in pages of 3; the withdrawn one and the denied ones are not screened again.
    expect(subjectIds).toContain(cleared);
    expect(subjectIds).toContain(underReview);
    expect(subjectIds).not.toContain(withdrawn);
    const open = await db().select({ id: loanApplications.id }).from(loanApplications).where(inArray(loanApplications.status, ["pending", "under_review", "approved"]));
    expect(subjectIds.sort()).toEqual(open.map((r) => r.id).sort());
    expect(result.screened).toBe(open.length);

    // The cleared Karimov entry changed: flagged again (a new row), the cleared row kept.
    const rows = await matchesOf(cleared);
    expect(rows.map((r) => r.status).sort()).toEqual(["cleared", "open"]);
    expect(rows.find((r) => r.status === "open")!.match).toMatchObject({ entityNumber: 1001, datesOfBirth: ["1968-03-15", "1969"] });
    expect(await state(cleared)).toBe("potential_match");
    expect((await matchesOf(underReview)).map((r) => r.match.entityNumber)).toEqual([1003]);
    expect(result.newMatches).toBeGreaterThanOrEqual(2);
    const screenings = await screeningsOf(cleared);
    expect(screenings.filter((s) => s.trigger === "list_load")).toHaveLength(1);
    expect(await screeningsOf(withdrawn)).toHaveLength(0);
  });

  it("never throws on any Unicode name, and records each screening", async () => {
    const id = await application();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 80 }), async (name) => {
        const result = await screenApplicant(db(), { applicationId: id, name, dateOfBirth: "1985-02-03", country: "United States" }, "list_load");
        expect(result.screeningId).toMatch(/^[0-9a-f-]{36}$/);
        expect(result.newMatches).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: target === "pglite" ? 25 : 10 },
    );
  });
});

describe("npm run sanctions:load re-screens after the load", () => {
  const tempDir = tempDirMaker("sanctions-rescreen");

  it("prints how many applications it screened again and how many potential matches it found", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const pages: (string | null)[] = [];
    const code = await sanctionsLoadCommand(
      ["--published", "2026-12-01", ...sdnPaths],
      { DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "off" },
      { log: (line) => out.push(line), error: (line) => err.push(line) },
      { subjects: () => async (after) => (pages.push(after), { subjects: [], next: null }) },
    );
    expect(code, err.join("\n")).toBe(0);
    expect(pages).toEqual([null]);
    expect(out.at(-1)).toBe("Re-screened 0 applications: 0 potential matches.");
  }, 180_000);
});
