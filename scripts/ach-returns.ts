// npm run ach:returns -- <file>
// Imports the bank's ACH return file: each returned entry matched to the one we sent and returned
// (debits react by return code), all or nothing. See app/server/loans/ach-return-import.server.ts and
// decision 0095.
import { achReturnsCommand } from "~/server/loans/index.server";

process.exitCode = await achReturnsCommand(process.argv.slice(2));
