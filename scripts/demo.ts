// npm run demo [-- --admin-email E --admin-password P] [--force]
// Fills the configured database (embedded PGlite in DATA_DIR, or DATABASE_URL) with a small, realistic
// data set for a first look: applicants with applications in every status, their documents (real small
// PDF and PNG files in document storage) and bank accounts (encrypted like a real submission), approved
// loans, denials with reasons, testimonials, contact messages and audit entries, plus an admin account.
// Running it again adds nothing. It refuses NODE_ENV=production unless --force is given.
import { and, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { deflateSync } from "node:zlib";
import { DOCUMENT_FIELDS, validateApplicationFields, type ApplicationFields } from "~/domain/validation/application";
import { moderateTestimonial } from "~/server/admin/moderation.server";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/audit.server";
import { ensureAdmin } from "~/server/auth/admins.server";
import { getAuth } from "~/server/auth/auth.server";
import { ConfigError, loadConfig, setConfig } from "~/server/config.server";
import { applicationRow, bankAccountRow } from "~/server/applications/submit.server";
import { openDatabase, setDatabase, type Database, type Db } from "~/server/db/client.server";
import { DataDirLockedError } from "~/server/db/data-dir-lock.server";
import { runMigrations } from "~/server/db/migrate.server";
import {
  auditLog,
  bankAccounts,
  contactMessages,
  loanApplications,
  loanDocuments,
  profiles,
  testimonials,
  user as userTable,
} from "~/server/db/schema.server";
import { approveApplication, denyApplication } from "~/server/reviews.server";
import { documentKey, getStorage, type DocumentStorage } from "~/server/storage/storage.server";
import { createTestimonial } from "~/server/testimonials.server";

export const DEMO_APPLICANT_PASSWORD = "Demo!Pass123";
export const DEMO_ADMIN_DEFAULTS = { email: "admin@example.com", password: "Admin!Demo123", name: "Demo Administrator" } as const;

/** Audit rows and decisions made by the seeder say where they came from. */
const DEMO_REQUEST: RequestInfo = { ip: "127.0.0.1", userAgent: "npm run demo (demo data seeder)" };

// ---------------------------------------------------------------------------------------------
// The data set. Every person, company and bank is invented; e-mails are on example.com, phone
// numbers in the fictional 555-01xx block, SSNs in the 987-65-4320..4329 block the SSA reserves for
// advertising, routing numbers in the unassigned 50xx range.
// ---------------------------------------------------------------------------------------------

type Outcome = "pending" | "under_review" | "approved" | "denied";

type DemoApplication = {
  /** Unique per applicant; stored as the application's idempotency key (so a rerun finds it). */
  key: string;
  daysAgo: number;
  outcome: Outcome;
  loan: Record<string, string>;
  bank: Record<string, string>;
  approve?: { approvedAmount: number; interestRate: number; termMonths: number };
  denyReasons?: string[];
  /** Admin notes for applications under review. */
  note?: string;
};

type DemoApplicant = {
  name: string;
  email: string;
  personal: Record<string, string>;
  financial: Record<string, string>;
  applications: DemoApplication[];
  testimonial?: { rating: number; role: string; location: string; content: string; daysAgo: number; approve: boolean };
};

/** A 9-digit ABA routing number: 8 digits plus the checksum digit (weights 3, 7, 1). */
function routing(first8: string): string {
  const d = first8.split("").map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

export const DEMO_APPLICANTS: DemoApplicant[] = [
  {
    name: "Maria Delgado",
    email: "maria.delgado@example.com",
    personal: { firstName: "Maria", middleInitial: "L", lastName: "Delgado", dateOfBirth: "1984-03-22", ssn: "987-65-4320", phone: "(602) 555-0114", addressLine1: "2150 E Camelback Rd", addressLine2: "Apt 310", city: "Phoenix", state: "AZ", zipCode: "85016" },
    financial: { employmentStatus: "full-time", employerName: "Desert Valley Medical Center", jobTitle: "Registered Nurse", yearsEmployed: "9", monthlyIncome: "7,400", annualIncome: "88,800", creditScore: "742", monthlyDebts: "650", hasOutstandingLoans: "false", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-maria-personal-01",
        daysAgo: 21,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "25,000", desiredInterestRate: "9.75", loanDuration: "36", loanPurpose: "Paying off medical bills and replacing the roof of our detached garage before the monsoon season." },
        bank: { accountHolderName: "Maria L Delgado", bankName: "Saguaro Community Bank", bankAddress: "400 N Central Ave, Phoenix, AZ 85004", accountNumber: "4402918837", routingNumber: routing("50120031"), bankAccountType: "checking" },
        approve: { approvedAmount: 25_000, interestRate: 9.75, termMonths: 36 },
      },
    ],
    testimonial: {
      rating: 5,
      role: "Registered Nurse",
      location: "Phoenix, AZ",
      content: "From application to funding took less than a week. My loan officer explained every fee up front and there were no surprises at closing.",
      daysAgo: 12,
      approve: true,
    },
  },
  {
    name: "James Whitaker",
    email: "james.whitaker@example.com",
    personal: { firstName: "James", middleInitial: "R", lastName: "Whitaker", dateOfBirth: "1979-11-02", ssn: "987-65-4321", phone: "(704) 555-0162", addressLine1: "418 Camden Rd", city: "Charlotte", state: "NC", zipCode: "28203" },
    financial: { employmentStatus: "self-employed", employerName: "Whitaker Custom Cabinetry LLC", jobTitle: "Owner", yearsEmployed: "7", monthlyIncome: "14,500", annualIncome: "174,000", creditScore: "701", monthlyDebts: "2,300", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-james-business-01",
        daysAgo: 2,
        outcome: "pending",
        loan: { loanType: "business", loanAmount: "180,000", desiredInterestRate: "11.5", loanDuration: "60", loanPurpose: "Purchase of a CNC router and working capital for two new commercial fit-out contracts.", businessName: "Whitaker Custom Cabinetry LLC", businessYears: "7" },
        bank: { accountHolderName: "Whitaker Custom Cabinetry LLC", bankName: "Piedmont Merchants Bank", bankAddress: "201 S Tryon St, Charlotte, NC 28202", accountNumber: "730015502291", routingNumber: routing("50310422"), bankAccountType: "business", swiftCode: "PMBKUS33" },
      },
    ],
    testimonial: {
      rating: 4,
      role: "Small Business Owner",
      location: "Charlotte, NC",
      content: "The business loan process was straightforward and the team understood seasonal cash flow. Every question got an answer the same day.",
      daysAgo: 1,
      approve: false,
    },
  },
  {
    name: "Priya Raman",
    email: "priya.raman@example.com",
    personal: { firstName: "Priya", lastName: "Raman", dateOfBirth: "1987-06-15", ssn: "987-65-4322", phone: "(512) 555-0187", addressLine1: "7801 Shoal Creek Blvd", city: "Austin", state: "TX", zipCode: "78757" },
    financial: { employmentStatus: "self-employed", employerName: "Raman Property Partners", jobTitle: "Real Estate Investor", yearsEmployed: "6", monthlyIncome: "18,200", annualIncome: "218,400", creditScore: "768", monthlyDebts: "4,100", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-priya-hardmoney-01",
        daysAgo: 5,
        outcome: "under_review",
        loan: { loanType: "hard-money", loanAmount: "650,000", desiredInterestRate: "12.9", loanDuration: "12", loanPurpose: "Bridge financing to acquire and renovate a four-unit rental property before refinancing into a long-term loan.", propertyAddress: "1207 E 12th St, Austin, TX 78702" },
        bank: { accountHolderName: "Priya Raman", bankName: "Hill Country Savings", bankAddress: "1100 Congress Ave, Austin, TX 78701", accountNumber: "55120987431", routingNumber: routing("50640018"), bankAccountType: "checking" },
        note: "Appraisal ordered; waiting on the title commitment before the final review.",
      },
    ],
  },
  {
    name: "Daniel Okafor",
    email: "daniel.okafor@example.com",
    personal: { firstName: "Daniel", middleInitial: "C", lastName: "Okafor", dateOfBirth: "1996-09-08", ssn: "987-65-4323", phone: "(614) 555-0139", addressLine1: "55 W Lane Ave", addressLine2: "Apt 4B", city: "Columbus", state: "OH", zipCode: "43201" },
    financial: { employmentStatus: "part-time", employerName: "Buckeye Logistics", jobTitle: "Warehouse Associate", yearsEmployed: "1.5", monthlyIncome: "2,300", annualIncome: "27,600", creditScore: "588", monthlyDebts: "1,150", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-daniel-auto-01",
        daysAgo: 12,
        outcome: "denied",
        loan: { loanType: "auto-loans", loanAmount: "38,000", desiredInterestRate: "14.9", loanDuration: "60", loanPurpose: "Purchase of a reliable used pickup truck for commuting and weekend delivery work." },
        bank: { accountHolderName: "Daniel C Okafor", bankName: "Scioto Valley Credit Union", accountNumber: "9910043378", routingNumber: routing("50440107"), bankAccountType: "checking" },
        denyReasons: ["Debt-to-income ratio above our lending guidelines", "Length of employment below our minimum of two years"],
      },
    ],
  },
  {
    name: "Emily Chen",
    email: "emily.chen@example.com",
    personal: { firstName: "Emily", lastName: "Chen", dateOfBirth: "1982-01-30", ssn: "987-65-4324", phone: "(503) 555-0175", addressLine1: "3320 SE Belmont St", city: "Portland", state: "OR", zipCode: "97214" },
    financial: { employmentStatus: "full-time", employerName: "Cascade Software Group", jobTitle: "Senior Product Manager", yearsEmployed: "5", monthlyIncome: "12,900", annualIncome: "154,800", creditScore: "781", monthlyDebts: "1,900", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-emily-homeimp-01",
        daysAgo: 30,
        outcome: "approved",
        loan: { loanType: "home-improvement", loanAmount: "85,000", desiredInterestRate: "8.25", loanDuration: "120", loanPurpose: "Kitchen remodel and energy-efficient windows for our 1920s bungalow." },
        bank: { accountHolderName: "Emily Chen", bankName: "Willamette Federal Credit Union", bankAddress: "800 SW Broadway, Portland, OR 97205", accountNumber: "204478810563", routingNumber: routing("50230071"), bankAccountType: "checking" },
        approve: { approvedAmount: 80_000, interestRate: 8.25, termMonths: 120 },
      },
    ],
    testimonial: {
      rating: 5,
      role: "Homeowner",
      location: "Portland, OR",
      content: "Clear terms, a fair rate and a dashboard that showed exactly where my application stood. Our kitchen remodel is finished thanks to Private Loans.",
      daysAgo: 20,
      approve: true,
    },
  },
  {
    name: "Robert Kowalski",
    email: "robert.kowalski@example.com",
    personal: { firstName: "Robert", middleInitial: "J", lastName: "Kowalski", dateOfBirth: "1975-04-19", ssn: "987-65-4325", phone: "(414) 555-0128", addressLine1: "2914 S Kinnickinnic Ave", city: "Milwaukee", state: "WI", zipCode: "53207" },
    financial: { employmentStatus: "full-time", employerName: "Lakeshore Manufacturing", jobTitle: "Maintenance Supervisor", yearsEmployed: "14", monthlyIncome: "6,100", annualIncome: "73,200", creditScore: "655", monthlyDebts: "1,750", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-robert-personal-01",
        daysAgo: 45,
        outcome: "denied",
        loan: { loanType: "personal", loanAmount: "60,000", desiredInterestRate: "11.25", loanDuration: "60", loanPurpose: "Boat purchase and a family trip to Poland for my parents' anniversary." },
        bank: { accountHolderName: "Robert J Kowalski", bankName: "Lakeshore Savings Bank", bankAddress: "735 N Water St, Milwaukee, WI 53202", accountNumber: "3300671209", routingNumber: routing("50750066"), bankAccountType: "savings" },
        denyReasons: ["Requested amount exceeds what the stated income supports"],
      },
      {
        key: "demo-robert-debtcons-02",
        daysAgo: 1,
        outcome: "pending",
        loan: { loanType: "debt-consolidation", loanAmount: "42,000", desiredInterestRate: "10.9", loanDuration: "48", loanPurpose: "Consolidating three credit cards and a personal loan into one lower monthly payment." },
        bank: { accountHolderName: "Robert J Kowalski", bankName: "Lakeshore Savings Bank", bankAddress: "735 N Water St, Milwaukee, WI 53202", accountNumber: "3300671217", routingNumber: routing("50750066"), bankAccountType: "checking" },
      },
    ],
  },
  {
    name: "Sofia Alvarez",
    email: "sofia.alvarez@example.com",
    personal: { firstName: "Sofia", middleInitial: "M", lastName: "Alvarez", dateOfBirth: "1961-12-05", ssn: "987-65-4326", phone: "(305) 555-0193", addressLine1: "1500 Brickell Bay Dr", addressLine2: "Unit 1204", city: "Miami", state: "FL", zipCode: "33131" },
    financial: { employmentStatus: "retired", employerName: "Retired (Miami-Dade Public Schools)", jobTitle: "Retired Teacher", monthlyIncome: "5,800", annualIncome: "69,600", creditScore: "724", monthlyDebts: "900", hasOutstandingLoans: "false", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-sofia-personal-01",
        daysAgo: 60,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "15,000", desiredInterestRate: "7.99", loanDuration: "24", loanPurpose: "Covering dental implant costs that my insurance does not pay." },
        bank: { accountHolderName: "Sofia M Alvarez", bankName: "Biscayne Harbor Bank", bankAddress: "2 S Biscayne Blvd, Miami, FL 33131", accountNumber: "6120049982", routingNumber: routing("50660091"), bankAccountType: "checking" },
        approve: { approvedAmount: 15_000, interestRate: 7.99, termMonths: 24 },
      },
      {
        key: "demo-sofia-private-02",
        daysAgo: 3,
        outcome: "under_review",
        loan: { loanType: "private", loanAmount: "300,000", desiredInterestRate: "13.5", loanDuration: "24", loanPurpose: "Short-term private loan to buy a smaller condo before my current home sells." },
        bank: { accountHolderName: "Sofia M Alvarez", bankName: "Biscayne Harbor Bank", bankAddress: "2 S Biscayne Blvd, Miami, FL 33131", accountNumber: "6120050017", routingNumber: routing("50660091"), bankAccountType: "savings" },
        note: "Awaiting the listing agreement for the current home and two months of pension statements.",
      },
    ],
    testimonial: {
      rating: 5,
      role: "Retired Teacher",
      location: "Miami, FL",
      content: "My second loan with Private Loans. Respectful, patient staff who answered every question and never rushed me.",
      daysAgo: 2,
      approve: false,
    },
  },
];

export const DEMO_CONTACT_MESSAGES = [
  {
    name: "Thomas Brennan",
    email: "thomas.brennan@example.com",
    phone: "2675550101",
    subject: "Question about hard money loan terms",
    message: "Hi, I'm a first-time investor looking at a duplex in Philadelphia. What loan-to-value do you offer on hard money loans, and do you require a full appraisal?\n\nThanks,\nTom",
    status: "new",
    hoursAgo: 3,
  },
  {
    name: "Angela Morris",
    email: "angela.morris@example.com",
    phone: null,
    subject: "Document upload help",
    message: "I tried to upload my utility bill as a photo from my phone and it didn't go through. Which file formats do you accept?",
    status: "new",
    hoursAgo: 26,
  },
  {
    name: "Kevin Patel",
    email: "kevin.patel@example.com",
    phone: "9195550156",
    subject: "Early payoff",
    message: "Is there a prepayment penalty if I pay off my personal loan early? I expect a bonus in the spring.",
    status: "read",
    hoursAgo: 4 * 24,
  },
  {
    name: "Laura Simmons",
    email: "laura.simmons@example.com",
    phone: "8135550177",
    subject: "Referral partnership",
    message: "We run a network of realtors in Tampa and would like to discuss referring clients who need bridge financing.",
    status: "archived",
    hoursAgo: 9 * 24,
  },
] as const;

// ---------------------------------------------------------------------------------------------
// Small real documents: a one-page PDF with text, and PNG images (ID card, signature).
// ---------------------------------------------------------------------------------------------

const pdfText = (s: string) => s.replace(/[^\x20-\x7e]/g, "?").replace(/[\\()]/g, (c) => `\\${c}`);

/** A valid one-page PDF (Helvetica text, correct xref table) marked as a demo document. */
export function demoPdf(title: string, lines: string[]): Buffer {
  const content = [
    "BT",
    "0.75 0 0 rg /F1 10 Tf 72 750 Td (DEMO DOCUMENT - NOT A REAL RECORD - PRIVATE LOANS SAMPLE DATA) Tj",
    "0.06 0.16 0.31 rg /F1 20 Tf 0 -40 Td",
    `(${pdfText(title)}) Tj`,
    "0 0 0 rg /F1 11 Tf",
    ...lines.map((line, i) => `0 ${i === 0 ? -32 : -17} Td (${pdfText(line)}) Tj`),
    "ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

type Rgb = readonly [number, number, number];

/** An RGB PNG painted pixel by pixel. */
export function demoPng(width: number, height: number, paint: (x: number, y: number) => Rgb): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

const NAVY: Rgb = [15, 42, 79];
const WHITE: Rgb = [255, 255, 255];
const inside = (v: number, from: number, to: number) => v >= from && v < to;

function idCardFront(seed: number): Buffer {
  const tint: Rgb = [219 - (seed % 4) * 6, 232, 247];
  return demoPng(300, 190, (x, y) => {
    if (y < 34) return NAVY;
    if (inside(x, 18, 98) && inside(y, 50, 160)) return [154, 165, 177];
    for (const [top, w] of [[60, 150], [80, 120], [100, 140], [120, 90], [140, 110]] as const) {
      if (inside(x, 116, 116 + w) && inside(y, top, top + 8)) return [71, 85, 105];
    }
    if (y > 176) return [230, 185, 73];
    return tint;
  });
}

function idCardBack(seed: number): Buffer {
  return demoPng(300, 190, (x, y) => {
    if (inside(y, 18, 52)) return [20, 20, 20];
    if (inside(y, 120, 172) && inside(x, 24, 276) && ((x * 7 + seed) % 11) < 4) return [30, 30, 30];
    if (inside(y, 70, 78) && inside(x, 24, 200)) return [100, 116, 139];
    return [241, 245, 249];
  });
}

function signature(seed: number): Buffer {
  const phase = seed * 0.7;
  return demoPng(320, 90, (x, y) => {
    if (x < 20 || x > 300) return WHITE;
    const curve = 45 + 20 * Math.sin(x / 13 + phase) * Math.cos(x / 41);
    if (Math.abs(y - curve) < 1.8) return NAVY;
    if (y === 78 && x > 16) return [148, 163, 184];
    return WHITE;
  });
}

const money = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function monthName(daysAgo: number, monthsBack: number): string {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - monthsBack);
  return d.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
}

type DemoFile = { type: (typeof DOCUMENT_FIELDS)[number]["type"] | "signature"; ext: "pdf" | "png"; mime: "application/pdf" | "image/png"; bytes: Buffer };

function documentsFor(app: DemoApplication, fields: ApplicationFields, seed: number): DemoFile[] {
  const holder = `${fields.firstName} ${fields.lastName}`;
  const address = `${fields.addressLine1}${fields.addressLine2 ? `, ${fields.addressLine2}` : ""}, ${fields.city}, ${fields.state} ${fields.zipCode}`;
  const monthly = fields.monthlyIncome;
  const pdf = (type: DemoFile["type"], title: string, lines: string[]): DemoFile => ({ type, ext: "pdf", mime: "application/pdf", bytes: demoPdf(title, lines) });
  const png = (type: DemoFile["type"], bytes: Buffer): DemoFile => ({ type, ext: "png", mime: "image/png", bytes });
  const statement = (n: 1 | 2 | 3) => {
    const opening = Math.round(monthly * (0.8 + n * 0.15) * 100) / 100;
    const spent = Math.round(monthly * 0.92 * 100) / 100;
    return pdf(`bank_statement_${n}`, `${fields.bankName} - Account Statement`, [
      `Statement period: ${monthName(app.daysAgo, n)}`,
      `Account holder: ${fields.accountHolderName}`,
      `Account number: ******${fields.accountNumber.slice(-4)} (${fields.bankAccountType})`,
      `Mailing address: ${address}`,
      "",
      `Opening balance: ${money(opening)}`,
      `Deposits and credits: ${money(monthly)}`,
      `Withdrawals and debits: ${money(spent)}`,
      `Closing balance: ${money(opening + monthly - spent)}`,
    ]);
  };
  const files: DemoFile[] = [
    png("id_card_front", idCardFront(seed)),
    png("id_card_back", idCardBack(seed)),
    statement(1),
    statement(2),
    statement(3),
    pdf("utility_bill", "Metro Power & Water - Monthly Bill", [
      `Customer: ${holder}`,
      `Service address: ${address}`,
      `Billing period: ${monthName(app.daysAgo, 1)}`,
      `Electricity: ${money(84.12 + seed * 3)}   Water and sewer: ${money(41.3 + seed)}`,
      `Amount due: ${money(125.42 + seed * 4)}`,
    ]),
  ];
  if (fields.loanType === "hard-money" && fields.propertyAddress) {
    files.push(
      pdf("collateral_docs", "Collateral Summary - Subject Property", [
        `Borrower: ${holder}`,
        `Property: ${fields.propertyAddress}`,
        "Type: four-unit residential rental",
        `Purchase price: ${money(fields.loanAmount / 0.7)}   Requested loan: ${money(fields.loanAmount)}`,
        "Title commitment and insurance binder to follow.",
      ]),
    );
  }
  files.push(png("signature", signature(seed)));
  return files;
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

export type SeedDemoOptions = {
  adminEmail?: string;
  adminPassword?: string;
  adminName?: string;
  /** Where documents go (default: the configured document storage). */
  storage?: DocumentStorage;
};

export type SeedDemoResult = {
  admin: { email: string; created: boolean; promoted: boolean };
  applicantsCreated: number;
  applicationsCreated: number;
  byStatus: Record<Outcome, number>;
  documentsStored: number;
  testimonialsCreated: number;
  messagesCreated: number;
  auditRowsWritten: number;
  /** One line per new application, for the summary. */
  created: string[];
};

const ago = (unit: "day" | "hour", amount: number) => sql`now() - (${amount}::float8 * ${sql.raw(`interval '1 ${unit}'`)})`;

async function ensureApplicant(database: Database, applicant: DemoApplicant): Promise<{ id: string; created: boolean }> {
  const db = database.db;
  const [existing] = await db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, applicant.email)).limit(1);
  let id = existing?.id;
  const created = !id;
  if (!id) {
    const result = await getAuth(database).api.signUpEmail({ body: { name: applicant.name, email: applicant.email, password: DEMO_APPLICANT_PASSWORD } });
    id = result.user.id;
    // The demo addresses cannot receive the sign-up code; they count as verified.
    await db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, id));
    const p = applicant.personal;
    await db
      .update(profiles)
      .set({
        phone: p.phone!.replace(/\D/g, ""),
        address: [p.addressLine1, p.addressLine2].filter(Boolean).join(", "),
        city: p.city!,
        state: p.state!,
        zipCode: p.zipCode!,
      })
      .where(eq(profiles.id, id));
  }
  return { id, created };
}

/** Writes one application the way a submission does: files first, then one transaction. */
async function insertApplication(
  db: Db,
  storage: DocumentStorage,
  userId: string,
  applicant: DemoApplicant,
  app: DemoApplication,
  seed: number,
): Promise<{ id: string; documents: number }> {
  const raw = { ...applicant.personal, email: applicant.email, ...app.loan, ...applicant.financial, ...app.bank, agreeToTerms: "true" };
  const validated = validateApplicationFields(raw);
  if (!validated.ok) throw new Error(`Demo application ${app.key} is invalid: ${validated.problem.field}: ${validated.problem.message}`);
  const f = validated.value;
  const applicationId = randomUUID();
  const files = documentsFor(app, f, seed).map((file) => ({ ...file, key: documentKey(userId, applicationId, file.type, file.ext) }));
  const written: string[] = [];
  try {
    for (const file of files) {
      await storage.put(file.key, file.bytes, file.mime);
      written.push(file.key);
    }
    await db.transaction(async (tx) => {
      await tx.insert(loanApplications).values({
        ...applicationRow(applicationId, { id: userId }, f, app.key),
        submittedAt: ago("day", app.daysAgo),
        createdAt: ago("day", app.daysAgo),
        updatedAt: ago("day", app.daysAgo),
      });
      await tx.insert(loanDocuments).values(
        files.map((file) => ({
          applicationId,
          userId,
          documentType: file.type,
          fileName: `${file.type}.${file.ext}`,
          filePath: file.key,
          fileSize: file.bytes.length,
          mimeType: file.mime,
          uploadedAt: ago("day", app.daysAgo),
        })),
      );
      const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(bankAccounts).where(eq(bankAccounts.userId, userId));
      await tx.insert(bankAccounts).values({
        ...bankAccountRow(userId, applicationId, f, Number(n) === 0),
        createdAt: ago("day", app.daysAgo),
      });
    });
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    throw error;
  }
  return { id: applicationId, documents: files.length };
}

/** Moves an application into its demo status the way admins do (approve/deny write their own audit rows). */
async function decide(db: Db, app: DemoApplication, applicationId: string, actor: AuditActor): Promise<number> {
  if (app.outcome === "approved") {
    await approveApplication(applicationId, app.approve!, actor, DEMO_REQUEST, db);
    return 1;
  }
  if (app.outcome === "denied") {
    await denyApplication(applicationId, app.denyReasons ?? ["Does not meet our lending guidelines"], actor, DEMO_REQUEST, db);
    return 1;
  }
  if (app.outcome === "under_review") {
    await db.transaction(async (tx) => {
      await tx
        .update(loanApplications)
        .set({ status: "under_review", notes: app.note ?? null, updatedAt: sql`now()` })
        .where(and(eq(loanApplications.id, applicationId), eq(loanApplications.status, "pending")));
      await writeAudit(tx, {
        actor,
        action: "application.note",
        table: "loan_applications",
        recordId: applicationId,
        details: { status: "under_review", note: app.note ?? "", source: "demo" },
        request: DEMO_REQUEST,
      });
    });
    return 1;
  }
  return 0;
}

/**
 * Adds the demo data set to `database` (migrated). Idempotent: applicants are found by e-mail,
 * applications by their idempotency key, testimonials by author and text, messages by sender and
 * subject; whatever exists is left alone, so a second run adds nothing.
 */
export async function seedDemo(database: Database, options: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const db = database.db;
  const storage = options.storage ?? getStorage();
  const adminEmail = (options.adminEmail ?? DEMO_ADMIN_DEFAULTS.email).trim().toLowerCase();
  const admin = await ensureAdmin(database, {
    email: adminEmail,
    password: options.adminPassword ?? DEMO_ADMIN_DEFAULTS.password,
    name: options.adminName ?? DEMO_ADMIN_DEFAULTS.name,
  });
  const [adminRow] = await db.select({ id: userTable.id, name: userTable.name, email: userTable.email }).from(userTable).where(eq(userTable.id, admin.userId));
  const actor: AuditActor = { id: adminRow!.id, name: adminRow!.name, email: adminRow!.email };

  const result: SeedDemoResult = {
    admin: { email: adminEmail, created: admin.created, promoted: admin.promoted },
    applicantsCreated: 0,
    applicationsCreated: 0,
    byStatus: { pending: 0, under_review: 0, approved: 0, denied: 0 },
    documentsStored: 0,
    testimonialsCreated: 0,
    messagesCreated: 0,
    auditRowsWritten: 0,
    created: [],
  };
  const firstUserIds: string[] = [];
  let seed = 0;

  for (const applicant of DEMO_APPLICANTS) {
    const { id: userId, created } = await ensureApplicant(database, applicant);
    firstUserIds.push(userId);
    if (created) result.applicantsCreated += 1;

    const oldestFirst = [...applicant.applications].sort((a, b) => b.daysAgo - a.daysAgo);
    for (const app of oldestFirst) {
      seed += 1;
      const [exists] = await db
        .select({ id: loanApplications.id })
        .from(loanApplications)
        .where(and(eq(loanApplications.userId, userId), eq(loanApplications.idempotencyKey, app.key)))
        .limit(1);
      if (exists) continue;
      const { id, documents } = await insertApplication(db, storage, userId, applicant, app, seed);
      result.auditRowsWritten += await decide(db, app, id, actor);
      result.applicationsCreated += 1;
      result.documentsStored += documents;
      result.byStatus[app.outcome] += 1;
      result.created.push(`${applicant.email}: ${app.loan.loanType!.replace("-loans", "").replace(/-/g, " ")} loan, ${app.outcome.replace("_", " ")}`);
    }

    const t = applicant.testimonial;
    if (t) {
      const [exists] = await db
        .select({ id: testimonials.id })
        .from(testimonials)
        .where(and(eq(testimonials.userId, userId), eq(testimonials.content, t.content)))
        .limit(1);
      if (!exists) {
        const displayName = `${applicant.personal.firstName} ${applicant.personal.lastName!.charAt(0)}.`;
        const { id } = await createTestimonial(userId, { rating: t.rating, fullName: applicant.name, displayName, role: t.role, location: t.location, content: t.content }, db);
        await db.update(testimonials).set({ createdAt: ago("day", t.daysAgo) }).where(eq(testimonials.id, id));
        result.testimonialsCreated += 1;
        if (t.approve) {
          const moderated = await moderateTestimonial({ id, decision: "approve" }, actor, DEMO_REQUEST, db);
          if (moderated.ok) result.auditRowsWritten += 1;
        }
      }
    }
  }

  for (const m of DEMO_CONTACT_MESSAGES) {
    const [exists] = await db
      .select({ id: contactMessages.id })
      .from(contactMessages)
      .where(and(eq(contactMessages.email, m.email), eq(contactMessages.subject, m.subject)))
      .limit(1);
    if (exists) continue;
    await db.insert(contactMessages).values({
      name: m.name,
      email: m.email,
      phone: m.phone,
      subject: m.subject,
      message: m.message,
      status: m.status,
      ipAddress: "192.0.2.44",
      createdAt: ago("hour", m.hoursAgo),
    });
    result.messagesCreated += 1;
  }

  // A little history for the monitoring page (ranges 6 h to 7 days), only alongside new demo data.
  if (result.applicantsCreated > 0) {
    const history: { hoursAgo: number; action: string; table: string; recordId?: string; details: Record<string, unknown> }[] = [
      { hoursAgo: 140, action: "client.list", table: "profiles", details: { count: DEMO_APPLICANTS.length } },
      { hoursAgo: 70, action: "applications.list", table: "loan_applications", details: { tab: "pending" } },
      { hoursAgo: 50, action: "client.view", table: "profiles", recordId: firstUserIds[0], details: {} },
      { hoursAgo: 26, action: "document.list", table: "loan_documents", details: {} },
      { hoursAgo: 5, action: "client.view", table: "profiles", recordId: firstUserIds[2], details: {} },
      { hoursAgo: 1, action: "applications.list", table: "loan_applications", details: { tab: "pending" } },
    ];
    await db.insert(auditLog).values(
      history.map((h) => ({
        actorId: actor.id,
        actorName: actor.name,
        actorEmail: actor.email,
        action: h.action,
        tableName: h.table,
        recordId: h.recordId ?? null,
        details: { ...h.details, source: "demo" },
        ipAddress: DEMO_REQUEST.ip,
        userAgent: DEMO_REQUEST.userAgent,
        createdAt: ago("hour", h.hoursAgo),
      })),
    );
    result.auditRowsWritten += history.length;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

function printSummary(result: SeedDemoResult, options: { adminPassword: string; describe: string; storage: string }) {
  const nothingNew = result.applicantsCreated + result.applicationsCreated + result.testimonialsCreated + result.messagesCreated === 0;
  console.log(`Database: ${options.describe}`);
  console.log(`Document storage: ${options.storage}`);
  console.log("");
  if (result.admin.created) console.log(`Admin account created: ${result.admin.email}  password: ${options.adminPassword}`);
  else if (result.admin.promoted) console.log(`Admin role granted to the existing account ${result.admin.email} (its password was left unchanged).`);
  else console.log(`Admin account: ${result.admin.email} (already existed; its password was left unchanged).`);
  console.log("The admin sets up an authenticator app (two-factor) on the first visit to /admin.");
  console.log("");
  if (nothingNew) {
    console.log("The demo data is already there: nothing was added.");
    return;
  }
  if (result.applicantsCreated > 0) {
    console.log(`Applicants created: ${result.applicantsCreated} (every demo applicant's password: ${DEMO_APPLICANT_PASSWORD})`);
  }
  const s = result.byStatus;
  console.log(
    `Applications added: ${result.applicationsCreated} (pending ${s.pending}, under review ${s.under_review}, approved ${s.approved}, denied ${s.denied}) ` +
      `with ${result.documentsStored} documents and encrypted bank accounts`,
  );
  for (const line of result.created) console.log(`  - ${line}`);
  console.log(`Testimonials added: ${result.testimonialsCreated}; contact messages added: ${result.messagesCreated}; audit entries: ${result.auditRowsWritten}`);
  console.log("Decision e-mails to the demo applicants were queued in the outbox (example.com addresses receive nothing).");
}

async function main() {
  const { values } = parseArgs({
    options: {
      "admin-email": { type: "string" },
      "admin-password": { type: "string" },
      force: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log("Usage: npm run demo [-- --admin-email E --admin-password P] [--force]");
    console.log(`Adds demo applicants, applications, documents, testimonials and messages, and an admin (default ${DEMO_ADMIN_DEFAULTS.email}).`);
    return;
  }
  if (process.env.NODE_ENV === "production" && !values.force) {
    console.error("Refusing to add demo data: NODE_ENV=production. Demo accounts with published passwords do not belong in a live system.");
    console.error("If this really is a throwaway installation, run it again with --force.");
    process.exit(1);
  }
  const adminPassword = values["admin-password"] ?? DEMO_ADMIN_DEFAULTS.password;
  try {
    const config = loadConfig();
    setConfig(config);
    const database = config.databaseUrl
      ? await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2 })
      : await openDatabase({ dataDir: config.dataDir });
    setDatabase(database);
    try {
      await runMigrations(database);
      const storage = getStorage();
      const result = await seedDemo(database, { adminEmail: values["admin-email"], adminPassword, storage });
      printSummary(result, { adminPassword, describe: database.describe, storage: storage.describe });
    } finally {
      await database.close();
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`Cannot add the demo data: ${error.message}`);
      console.error("Stop the server first (the embedded database serves one process at a time), then run this again.");
    } else if (error instanceof ConfigError) {
      console.error(`Cannot add the demo data: ${error.message}`);
    } else {
      console.error(`Cannot add the demo data: ${(error as Error).message}`);
    }
    process.exit(1);
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) await main();
