// npm run demo [-- --admin-email E --admin-password P] [--force]
// Fills the configured database (embedded PGlite in DATA_DIR, or DATABASE_URL) with a small, realistic
// data set for a first look: applicants with applications in every status, their documents (real small
// PDF and PNG files in document storage) and bank accounts (encrypted like a real submission), approved
// loans, denials with reasons, testimonials, contact messages and audit entries, plus an admin account.
// Running it again adds nothing. It refuses NODE_ENV=production unless --force is given.
// The data set is in scripts/demo/data.ts, its documents in scripts/demo/documents.ts, the seeding in
// scripts/demo/seed.ts; this file is the command line.
import { parseArgs } from "node:util";
import { explainFailure, SCRIPT_FAILURE_WORDING, withAppDatabase } from "~/server/platform/db/command.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { DEMO_ADMIN_DEFAULTS, DEMO_APPLICANT_PASSWORD } from "./demo/data";
import { seedDemo, type SeedDemoResult } from "./demo/seed";

function printSummary(result: SeedDemoResult, options: { adminPassword: string; describe: string; storage: string }) {
  const nothingNew = result.applicantsCreated + result.applicationsCreated + result.testimonialsCreated + result.messagesCreated === 0;
  console.log(`Database: ${options.describe}`);
  console.log(`Document storage: ${options.storage}`);
  console.log("");
  if (result.admin.created) console.log(`Admin account created: ${result.admin.email}  password: ${options.adminPassword}`);
  else if (result.admin.promoted) console.log(`Admin role granted to the existing account ${result.admin.email} (its password was left unchanged).`);
  else console.log(`Admin account: ${result.admin.email} (already existed; its password was left unchanged).`);
  for (const member of result.staff) {
    const label = member.role === "loan_officer" ? "Loan officer" : "Auditor";
    if (member.created) console.log(`${label} account created: ${member.email}  password: ${member.password}`);
    else console.log(`${label} account: ${member.email} (already existed; its password was left unchanged).`);
  }
  console.log("Each staff member sets up an authenticator app (two-factor) on the first visit to /admin.");
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
    `Applications added: ${result.applicationsCreated} (pending ${s.pending}, under review ${s.under_review}, approved ${s.approved}, denied ${s.denied}, incomplete ${s.incomplete}) ` +
      `with ${result.documentsStored} documents and encrypted bank accounts`,
  );
  for (const line of result.created) console.log(`  - ${line}`);
  console.log(`What We Need items added: ${result.requestItemsCreated}; application messages added: ${result.conversationMessagesCreated}`);
  console.log(`Testimonials added: ${result.testimonialsCreated}; contact messages added: ${result.messagesCreated}; audit entries: ${result.auditRowsWritten}`);
  if (result.sanctionsMatches > 0) console.log(`Sanctions screening (sample list): ${result.sanctionsMatches} potential match(es) for staff to clear or confirm on the application page.`);
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
    await withAppDatabase(async (database) => {
      const storage = getStorage();
      const result = await seedDemo(database, { adminEmail: values["admin-email"], adminPassword, storage });
      printSummary(result, { adminPassword, describe: database.describe, storage: storage.describe });
    });
  } catch (error) {
    process.exit(explainFailure("add the demo data", error, console, SCRIPT_FAILURE_WORDING));
  }
}

await main();
