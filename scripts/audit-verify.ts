// npm run audit:verify: walks the audit log's hash chain and names the first broken row (exit 1), or
// says how many rows are intact (exit 0). Works on whichever database is configured; with the embedded
// database stop the server first (the data folder serves one process).
import { describeAuditChain, verifyAuditChain } from "~/server/platform/audit/audit-chain.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { explainFailure, withMigratedDatabase } from "~/server/platform/db/command.server";

try {
  const config = loadConfig(process.env);
  setConfig(config);
  process.exitCode = await withMigratedDatabase(config, async (database) => {
    const result = await verifyAuditChain(database.db);
    (result.ok ? console.log : console.error)(describeAuditChain(result));
    return result.ok ? 0 : 1;
  });
} catch (error) {
  process.exitCode = explainFailure("verify the audit log", error, console, {
    lockedHint: "Stop the server first (the embedded database serves one process at a time), then run this again.",
  });
}
