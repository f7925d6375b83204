// npm run sanctions:load -- --published YYYY-MM-DD sdn.csv add.csv alt.csv [cons_prim.csv cons_add.csv cons_alt.csv]
// Replaces the sanctions lists that screening compares against with OFAC's published CSV files, then
// screens every open application and active borrower against them again. See app/server/sanctions/
// and decision 0089.
import { screeningSubjectsPage } from "~/server/applications/index.server";
import { sanctionsLoadCommand } from "~/server/sanctions/index.server";

process.exitCode = await sanctionsLoadCommand(process.argv.slice(2), process.env, console, {
  subjects: (db) => (after, limit) => screeningSubjectsPage(db, after, limit),
});
