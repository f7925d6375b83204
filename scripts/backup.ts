// npm run backup -- <folder>. See app/server/backup/ and docs/security.md (backups and keys).
import { backupCommand } from "~/server/backup/commands.server";

process.exitCode = await backupCommand(process.argv.slice(2), process.env);
