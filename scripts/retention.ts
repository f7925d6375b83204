// npm run retention [-- --dry-run]: one disposal run by hand. See app/server/retention/.
import { retentionCommand } from "~/server/retention/index.server";

process.exitCode = await retentionCommand(process.argv.slice(2), process.env);
