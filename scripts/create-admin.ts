// npm run create-admin -- --email E --password P [--name N]
// Creates (or promotes) an admin on whichever database is configured. With the embedded database the
// data-folder lock makes this refuse while the server runs, instead of corrupting its data.
import { parseArgs } from "node:util";
import { ensureAdmin } from "~/server/auth/admins.server";
import { explainFailure, SCRIPT_FAILURE_WORDING, withAppDatabase } from "~/server/db/command.server";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
  strict: true,
});
const { email, password, name } = values;
if (!email || !password) {
  console.error("Usage: npm run create-admin -- --email E --password P [--name N]");
  process.exit(2);
}

try {
  await withAppDatabase(async (database) => {
    const result = await ensureAdmin(database, { email, password, name });
    const what = result.created ? "Created admin account" : result.promoted ? "Granted the admin role to" : "Already an admin:";
    console.log(`${what} ${email.toLowerCase()} (database: ${database.describe})`);
    if (!result.created) console.log("The existing password was left unchanged.");
  });
} catch (error) {
  process.exit(explainFailure("create the admin", error, console, SCRIPT_FAILURE_WORDING));
}
