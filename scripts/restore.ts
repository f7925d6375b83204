// npm run restore -- <folder> [--force]. See app/server/platform/backup/ and docs/security.md (backups and keys).
import { restoreCommand } from "~/server/platform/backup/commands.server";

process.exitCode = await restoreCommand(process.argv.slice(2), process.env);
