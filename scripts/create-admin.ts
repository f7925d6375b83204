// npm run create-admin -- --email E --password P [--name N]
// Creates (or promotes) an admin on whichever database is configured. With the embedded database the
// data-folder lock makes this refuse while the server runs, instead of corrupting its data.
import { parseArgs } from "node:util";
import { ensureAdmin } from "~/server/auth/admins.server";
import { ConfigError, loadConfig, setConfig } from "~/server/config.server";
import { openDatabase, setDatabase } from "~/server/db/client.server";
import { DataDirLockedError } from "~/server/db/data-dir-lock.server";
import { runMigrations } from "~/server/db/migrate.server";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
  strict: true,
});
if (!values.email || !values.password) {
  console.error("Usage: npm run create-admin -- --email E --password P [--name N]");
  process.exit(2);
}

try {
  const config = loadConfig();
  setConfig(config);
  const database = config.databaseUrl
    ? await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2 })
    : await openDatabase({ dataDir: config.dataDir });
  setDatabase(database);
  try {
    await runMigrations(database);
    const result = await ensureAdmin(database, { email: values.email, password: values.password, name: values.name });
    const what = result.created ? "Created admin account" : result.promoted ? "Granted the admin role to" : "Already an admin:";
    console.log(`${what} ${values.email.toLowerCase()} (database: ${database.describe})`);
    if (!result.created) console.log("The existing password was left unchanged.");
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(`Cannot create the admin: ${error.message}`);
    console.error("Stop the server first (the embedded database serves one process at a time), then run this again.");
  } else if (error instanceof ConfigError) {
    console.error(`Cannot create the admin: ${error.message}`);
  } else {
    console.error(`Cannot create the admin: ${(error as Error).message}`);
  }
  process.exit(1);
}
