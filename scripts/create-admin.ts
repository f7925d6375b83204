// npm run create-admin -- --email E --password P [--name N] [--role admin|loan_officer|auditor]
// Creates (or promotes) a staff member (an admin unless --role says otherwise) on whichever
// database is configured. The second factor is enrolled at the first staff sign-in. With the embedded database the
// data-folder lock makes this refuse while the server runs, instead of corrupting its data.
import { parseArgs } from "node:util";
import { ensureStaff } from "~/server/accounts/admins.server";
import { isOneOf, USER_ROLES } from "~/domain/enums";
import { explainFailure, SCRIPT_FAILURE_WORDING, withAppDatabase } from "~/server/platform/db/command.server";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
  strict: true,
});
const { email, password, name } = values;
const role = values.role ?? "admin";
if (!email || !password || !isOneOf(USER_ROLES, role)) {
  console.error(`Usage: npm run create-admin -- --email E --password P [--name N] [--role ${USER_ROLES.join("|")}]`);
  process.exit(2);
}

try {
  await withAppDatabase(async (database) => {
    const result = await ensureStaff(database, { email, password, name, role });
    const what = result.created ? `Created ${role} account` : result.promoted ? `Granted the ${role} role to` : "Already on the staff:";
    console.log(`${what} ${email.toLowerCase()} (database: ${database.describe})`);
    if (!result.created) console.log("The existing password was left unchanged.");
  });
} catch (error) {
  process.exit(explainFailure("create the admin", error, console, SCRIPT_FAILURE_WORDING));
}
