import { generator } from "../tests/helpers/seeded-random";
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { APPLICATION_STATUSES, type ApplicationStatus, type LoanType } from "~/domain/enums";
import { durationsFor } from "~/domain/lending-rules";
import { LOAN_RANGES } from "~/domain/loan-ranges";
import { monthlyPayment } from "~/domain/loan-math";
import { centsFromDollars } from "~/domain/money";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig } from "~/server/platform/config.server";
import { validateApplicationFields } from "~/domain/validation/application";
import { applicationRow, bankAccountRow } from "~/server/applications/index.server";
import { hashPassword } from "~/server/accounts/index.server";
import type { Database } from "~/server/platform/db/client.server";
import {
  account,
  approvedLoans,
  bankAccounts,
  loanApplications,
  loanDocuments,
  profiles,
  session,
  user as userTable,
  userRoles,
} from "~/server/platform/db/schema.server";
import { documentKey } from "~/server/platform/storage/storage-keys.server";

/**
 * A lender's database after a few years: applicants (with an old session each), their applications
 * in every status over two years, each with its bank account (SSN and bank numbers encrypted by the
 * submission's own row builders) and its document rows, approved loans, and admins. Rows go in with multi-row INSERTs in one transaction,
 * so 10,000 applications take seconds rather than 10,000 HTTP submissions.
 *
 * Document rows name storage keys but no file is written: the pages measured list documents, they
 * never read them. Every account shares one argon2id hash of `password` (hashing 2,000 passwords
 * would take minutes and proves nothing here). A fixed pseudo-random sequence makes runs comparable.
 */


/** The Federal Reserve routing symbols a routing number starts with (app/domain/routing-number.ts). */
const ROUTING_SYMBOLS = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "61", "62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "80"];

/** A made-up valid routing number from six random digits: a routing symbol, the digits, then the check digit. */
function routingNumberFrom(six: number): string {
  return withAbaCheckDigit(`${ROUTING_SYMBOLS[six % ROUTING_SYMBOLS.length]}${digits(six, 6)}`);
}

/** Eight digits plus the ABA check digit (weights 3, 7, 1 repeating). */
function withAbaCheckDigit(first8: string): string {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

export type ScaleSeedOptions = {
  applicants: number;
  applications: number;
  admins: number;
  password: string;
  /** Same numbers give the same data set. */
  seed?: number;
};

export type SeededAccount = { id: string; email: string; name: string };

export type ScaleSeedResult = {
  applicants: SeededAccount[];
  admins: SeededAccount[];
  byStatus: Record<ApplicationStatus, number>;
  /** Applications per applicant, in `applicants` order. */
  applicationsPerApplicant: number[];
  documents: number;
  approvedLoans: number;
  seconds: number;
};

const FIRST = ["James", "Maria", "Robert", "Linda", "Michael", "Patricia", "David", "Jennifer", "William", "Elizabeth", "Daniel", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen", "Anthony", "Nancy", "Priya", "Wei", "Aisha", "Kevin", "Emily", "Omar", "Grace", "Luis", "Hannah", "Andre"];
const LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "Okafor"];
const PLACES = [
  { city: "Phoenix", state: "AZ", zip: "85016", area: "602" },
  { city: "Charlotte", state: "NC", zip: "28203", area: "704" },
  { city: "Austin", state: "TX", zip: "78757", area: "512" },
  { city: "Columbus", state: "OH", zip: "43201", area: "614" },
  { city: "Portland", state: "OR", zip: "97214", area: "503" },
  { city: "Milwaukee", state: "WI", zip: "53207", area: "414" },
  { city: "Tampa", state: "FL", zip: "33602", area: "813" },
  { city: "Denver", state: "CO", zip: "80205", area: "303" },
  { city: "Richmond", state: "VA", zip: "23220", area: "804" },
  { city: "Boise", state: "ID", zip: "83702", area: "208" },
] as const;
const STREETS = ["Market Street", "Oak Avenue", "Camelback Rd", "Shoal Creek Blvd", "Lane Ave", "Belmont St", "Main Street", "Cedar Lane"];
const BANKS = ["Saguaro Community Bank", "Piedmont Merchants Bank", "Hill Country Savings", "Scioto Valley Credit Union", "Lakeshore Savings Bank"];
const EMPLOYERS = ["Desert Valley Medical Center", "Cascade Software Group", "Buckeye Logistics", "Lakeshore Manufacturing", "Front Range Builders", "City School District"];
const PURPOSES: Record<LoanType, string> = {
  personal: "Paying off medical bills and covering a family move across the state.",
  business: "Purchase of equipment and working capital for two new commercial contracts.",
  private: "Short-term financing while the sale of our current home closes.",
  "hard-money": "Bridge financing to acquire and renovate a rental property before refinancing.",
  "auto-loans": "Purchase of a reliable used pickup truck for commuting and weekend work.",
  "debt-consolidation": "Consolidating three credit cards into one lower monthly payment.",
  "home-improvement": "Kitchen remodel and energy-efficient windows for an older house.",
};
const LOAN_TYPES_WEIGHTED: LoanType[] = ["personal", "personal", "personal", "debt-consolidation", "debt-consolidation", "home-improvement", "auto-loans", "business", "private", "hard-money"];
const DENIAL_REASONS = ["Debt-to-income ratio above our lending guidelines", "Length of employment below our minimum of two years", "Requested amount exceeds what the stated income supports"];
/** Share of each status among applications, roughly a lender's steady state. */
const STATUS_WEIGHTS: [ApplicationStatus, number][] = [
  ["pending", 0.3],
  ["under_review", 0.1],
  ["approved", 0.35],
  ["denied", 0.25],
];
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 730;
/**
 * Active loans behind on their payments: the share in each delinquency bucket and the days past due
 * it spans (the rest are current), so the delinquency pages and the collections queue do real work.
 */
const BEHIND: [share: number, minDays: number, maxDays: number][] = [
  [0.05, 1, 29],
  [0.02, 30, 59],
  [0.012, 60, 89],
  [0.008, 90, 119],
  // Proposed for charge-off from 120 days: a loan stays in 120+ until the decision, not for years.
  [0.01, 120, 179],
];

/** The day `months` months after `day` ('yyyy-MM-dd'; a 31st becomes the month's last day). */
function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * An active loan's next due date: the installment after those paid (current), or, for the share
 * BEHIND says, a day that many days ago (never before its first installment's day).
 */
function seededNextDue(startDate: string, paidMonths: number, today: string, random: () => number): string {
  const current = addMonths(startDate, paidMonths + 1);
  let roll = random();
  for (const [share, minDays, maxDays] of BEHIND) {
    if (roll < share) {
      const behind = new Date(Date.parse(`${today}T00:00:00Z`) - (minDays + Math.floor(random() * (maxDays - minDays + 1))) * DAY_MS).toISOString().slice(0, 10);
      return behind >= addMonths(startDate, 1) ? behind : current;
    }
    roll -= share;
  }
  return current;
}

const digits = (n: number, length: number) => String(n).padStart(length, "0").slice(-length);

/** Multi-row INSERTs stay well under PostgreSQL's 65,535 bind parameters per statement. */
async function insertInBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export async function seedScale(database: Database, options: ScaleSeedOptions): Promise<ScaleSeedResult> {
  const started = performance.now();
  const rnd = generator(options.seed ?? 8);
  // Its own sequence, so the delinquency spread leaves every other seeded choice as it was.
  const dueRandom = generator((options.seed ?? 8) + 1000);
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const passwordHash = await hashPassword(options.password);

  const makeAccount = (kind: "applicant" | "admin", i: number): SeededAccount & { createdAt: Date; place: (typeof PLACES)[number]; first: string; last: string } => {
    const first = rnd.pick(FIRST);
    const last = rnd.pick(LAST);
    return {
      id: randomUUID().replaceAll("-", ""),
      email: `${kind}${i}@bench.example.com`,
      name: `${first} ${last}`,
      first,
      last,
      place: rnd.pick(PLACES),
      createdAt: new Date(now - rnd.int(HISTORY_DAYS, HISTORY_DAYS + 60) * DAY_MS),
    };
  };
  const applicants = Array.from({ length: options.applicants }, (_, i) => makeAccount("applicant", i));
  const admins = Array.from({ length: options.admins }, (_, i) => makeAccount("admin", i));

  // Everyone has applied once; the rest go to a minority of repeat borrowers (skewed, like real ones).
  const owners = Array.from({ length: options.applications }, (_, j) =>
    j < applicants.length ? j : Math.floor(applicants.length * rnd.next() ** 1.3),
  );
  const applicationsPerApplicant = applicants.map(() => 0);
  for (const owner of owners) applicationsPerApplicant[owner]! += 1;

  const byStatus = Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, 0])) as Record<ApplicationStatus, number>;
  const applicationRows: (typeof loanApplications.$inferInsert)[] = [];
  const bankRows: (typeof bankAccounts.$inferInsert)[] = [];
  const documentRows: (typeof loanDocuments.$inferInsert)[] = [];
  const loanRows: (typeof approvedLoans.$inferInsert)[] = [];
  // Every seeded loan is serviced by the default settings' terms, as if signed under them.
  const servicingTerms = servicingTermsFrom(getConfig().lateFeePolicy);
  const hasPrimaryBank = new Set<string>();

  for (const [j, owner] of owners.entries()) {
    const person = applicants[owner]!;
    const loanType = rnd.pick(LOAN_TYPES_WEIGHTED);
    // Inside the loan type's advertised range (the application rules refuse anything else).
    const range = LOAN_RANGES[loanType];
    const amount = rnd.int(range.minAmount / 500, Math.min(range.maxAmount, range.minAmount * 20) / 500) * 500;
    const duration = rnd.pick(durationsFor(loanType).filter((d) => d <= 120));
    const monthly = rnd.int(25, 180) * 100;
    const raw: Record<string, string> = {
      firstName: person.first,
      lastName: person.last,
      dateOfBirth: `${rnd.int(1955, 2000)}-${digits(rnd.int(1, 12), 2)}-${digits(rnd.int(1, 28), 2)}`,
      // Areas 773-899: never issued before the SSA's randomisation (June 2011), so no applicant born
      // 1955-2000 got one at birth; group and serial vary (searches by last 4 find a few, not half the
      // table) and pass isValidSsn (not 000, 666 or 9xx, group 00 or serial 0000). Decision 0045.
      ssn: `${rnd.int(773, 899)}-${digits(rnd.int(1, 99), 2)}-${digits(rnd.int(1, 9999), 4)}`,
      email: person.email,
      phone: `${person.place.area}55501${digits(rnd.int(0, 99), 2)}`,
      addressLine1: `${rnd.int(10, 9999)} ${rnd.pick(STREETS)}`,
      city: person.place.city,
      state: person.place.state,
      zipCode: person.place.zip,
      loanType,
      loanAmount: String(amount),
      desiredInterestRate: (rnd.int(699, 2499) / 100).toFixed(2),
      loanDuration: String(duration),
      loanPurpose: PURPOSES[loanType],
      ...(loanType === "hard-money" ? { propertyAddress: `${rnd.int(100, 4999)} ${rnd.pick(STREETS)}, ${person.place.city}, ${person.place.state} ${person.place.zip}` } : {}),
      ...(loanType === "business" ? { businessName: `${person.last} Services LLC`, businessYears: String(rnd.int(1, 20)) } : {}),
      employmentStatus: rnd.pick(["full-time", "full-time", "full-time", "part-time", "self-employed", "retired"]),
      employerName: rnd.pick(EMPLOYERS),
      jobTitle: "Staff",
      yearsEmployed: String(rnd.int(0, 25)),
      monthlyIncome: String(monthly),
      annualIncome: String(monthly * 12),
      creditScore: String(rnd.int(560, 820)),
      monthlyDebts: String(rnd.int(0, 40) * 50),
      hasOutstandingLoans: rnd.next() < 0.5 ? "true" : "false",
      authorizeCreditReport: "true",
      accountHolderName: person.name,
      bankName: rnd.pick(BANKS),
      accountNumber: `${rnd.int(100_000, 999_999)}${digits(j, 6)}`,
      routingNumber: routingNumberFrom(rnd.int(0, 999_999)),
      bankAccountType: rnd.pick(["checking", "checking", "savings"]),
      agreeToTerms: "true",
    };
    const validated = validateApplicationFields(raw);
    if (!validated.ok) throw new Error(`seed application ${j} is invalid: ${validated.problem.field}: ${validated.problem.message}`);
    const fields = validated.value;

    // More applications recently than two years ago (a growing lender), never before the account.
    const ageDays = HISTORY_DAYS * rnd.next() ** 1.4;
    const submittedAt = new Date(Math.max(person.createdAt.getTime() + DAY_MS, now - ageDays * DAY_MS - rnd.int(0, DAY_MS)));
    const roll = rnd.next();
    let acc = 0;
    let status: ApplicationStatus = "pending";
    for (const [s, w] of STATUS_WEIGHTS) {
      acc += w;
      if (roll < acc) {
        status = s;
        break;
      }
    }
    byStatus[status] += 1;
    const decided = status === "approved" || status === "denied";
    const reviewedAt = decided ? new Date(Math.min(now, submittedAt.getTime() + rnd.int(1, 10) * DAY_MS)) : null;
    const reviewer = decided && admins.length ? rnd.pick(admins).id : null;

    const id = randomUUID();
    applicationRows.push({
      ...applicationRow(id, { id: person.id }, fields, `seed-${digits(j, 8)}-${id.slice(0, 8)}`),
      status,
      submittedAt,
      createdAt: submittedAt,
      updatedAt: reviewedAt ?? submittedAt,
      reviewedAt,
      reviewedBy: reviewer,
      decisionReasons: status === "denied" ? [rnd.pick(DENIAL_REASONS)] : null,
    });
    bankRows.push({ ...bankAccountRow(person.id, id, fields, !hasPrimaryBank.has(person.id)), createdAt: submittedAt });
    hasPrimaryBank.add(person.id);

    const docs: (readonly [string, "pdf" | "png" | "jpg", "application/pdf" | "image/png" | "image/jpeg"])[] = [
      ["id_card_front", "jpg", "image/jpeg"],
      ["id_card_back", "jpg", "image/jpeg"],
      ["bank_statement_1", "pdf", "application/pdf"],
      ["bank_statement_2", "pdf", "application/pdf"],
      ["bank_statement_3", "pdf", "application/pdf"],
      ["utility_bill", "pdf", "application/pdf"],
      ...(loanType === "hard-money" ? ([["collateral_docs", "pdf", "application/pdf"]] as const) : []),
      ["signature", "png", "image/png"],
    ];
    for (const [type, ext, mime] of docs) {
      documentRows.push({
        applicationId: id,
        userId: person.id,
        documentType: type as (typeof loanDocuments.$inferInsert)["documentType"],
        fileName: `${type.replaceAll("_", "-")}.${ext}`,
        filePath: documentKey(person.id, id, type, ext),
        fileSize: rnd.int(20_000, 2_000_000),
        mimeType: mime,
        uploadedAt: submittedAt,
      });
    }

    if (status === "approved") {
      const amountCents = centsFromDollars(Math.round(amount * (rnd.next() < 0.7 ? 1 : 0.8)));
      const rate = fields.desiredInterestRate;
      const paidMonths = Math.min(duration, Math.floor((now - reviewedAt!.getTime()) / (30 * DAY_MS)));
      const paymentCents = monthlyPayment(amountCents, rate, duration);
      const startDate = reviewedAt!.toISOString().slice(0, 10);
      const nextDue = seededNextDue(startDate, paidMonths, today, () => dueRandom.next());
      loanRows.push({
        userId: person.id,
        applicationId: id,
        obligorName: person.name,
        nextDueDate: paidMonths >= duration ? null : nextDue,
        status: paidMonths >= duration ? "paid_off" : "active",
        balanceCents: Math.max(0, Math.round(amountCents - paymentCents * paidMonths * 0.8)),
        termMonths: duration,
        amountCents,
        noteRateMilli: rate,
        paymentCents,
        servicingTerms,
        startDate: reviewedAt!.toISOString().slice(0, 10),
        approvalDate: reviewedAt!,
        createdAt: reviewedAt!,
        updatedAt: reviewedAt!,
      });
    }
  }

  const everyone = [...applicants, ...admins];
  await database.db.transaction(async (tx) => {
    await insertInBatches(everyone, 1000, (batch) =>
      tx.insert(userTable).values(batch.map((p) => ({ id: p.id, name: p.name, email: p.email, emailVerified: true, createdAt: p.createdAt, updatedAt: p.createdAt }))),
    );
    await insertInBatches(everyone, 1000, (batch) =>
      tx.insert(account).values(
        batch.map((p) => ({ id: randomUUID().replaceAll("-", ""), accountId: p.id, providerId: "credential", userId: p.id, password: passwordHash, createdAt: p.createdAt, updatedAt: p.createdAt })),
      ),
    );
    await insertInBatches(everyone, 1000, (batch) =>
      tx.insert(profiles).values(
        batch.map((p) => ({
          id: p.id,
          fullName: p.name,
          email: p.email,
          phone: `${p.place.area}5550100`,
          city: p.place.city,
          state: p.place.state,
          zipCode: p.place.zip,
          createdAt: p.createdAt,
          updatedAt: p.createdAt,
        })),
      ),
    );
    // Sessions from earlier visits (most long expired): the token lookup must not care how many there are.
    await insertInBatches(applicants, 1000, (batch) =>
      tx.insert(session).values(
        batch.map((p) => {
          const lastSeen = new Date(now - rnd.int(0, HISTORY_DAYS) * DAY_MS);
          return {
            id: randomUUID().replaceAll("-", ""),
            token: randomBytes(24).toString("base64url"),
            userId: p.id,
            createdAt: lastSeen,
            updatedAt: lastSeen,
            expiresAt: new Date(lastSeen.getTime() + 7 * DAY_MS),
            ipAddress: "192.0.2.10",
            userAgent: "Mozilla/5.0 (seeded session)",
          };
        }),
      ),
    );
    if (admins.length) await tx.insert(userRoles).values(admins.map((a) => ({ userId: a.id, role: "admin" as const })));
    await insertInBatches(applicationRows, 500, (batch) => tx.insert(loanApplications).values(batch));
    await insertInBatches(bankRows, 2000, (batch) => tx.insert(bankAccounts).values(batch));
    await insertInBatches(documentRows, 4000, (batch) => tx.insert(loanDocuments).values(batch));
    await insertInBatches(loanRows, 2000, (batch) => tx.insert(approvedLoans).values(batch));
  });
  // What autovacuum does some time after a bulk load: statistics for the planner and a visibility
  // map for index-only scans. Without it the first plans would be made blind.
  await database.db.execute(sql`vacuum analyze`);

  const strip = ({ id, email, name }: SeededAccount): SeededAccount => ({ id, email, name });
  return {
    applicants: applicants.map(strip),
    admins: admins.map(strip),
    byStatus,
    applicationsPerApplicant,
    documents: documentRows.length,
    approvedLoans: loanRows.length,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
