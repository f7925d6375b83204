// npm run backup -- <folder>. See app/server/platform/backup/ and docs/security.md (backups and keys).
import { backupCommand } from "~/server/platform/backup/commands.server";

process.exitCode = await backupCommand(process.argv.slice(2), process.env);
