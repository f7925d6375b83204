// npm run migrate: the deployment's migrate step from the sources (a build runs the same code as
// `node server.js --migrate`). See app/server/platform/db/migrate-command.server.ts.
import { migrateCommand } from "~/server/platform/db/migrate-command.server";
import { migrateData } from "../server/data-migrations";

process.exitCode = await migrateCommand(process.env, console, migrateData);
