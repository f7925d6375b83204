import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { UserRole } from "~/domain/enums";
import { newDataDir } from "../data-template";
import { testSecrets } from "../harness";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");

export type StaffSeed = { email: string; password: string; name: string; role: UserRole };

/**
 * Staff accounts written into a new data folder before the server starts on it (issue 22), with the
 * product's own command (`npm run create-admin -- --role …`), so suites can act as a loan officer or
 * an auditor without going through an invitation. Each still enrols the second factor at sign-in.
 * Returns the data folder to pass to startTestServer / startServerWithMail ({ dataDir }).
 */
export async function dataDirWithStaff(staff: StaffSeed[]): Promise<string> {
  const dataDir = newDataDir("portal-e2e-staff-");
  for (const s of staff) {
    await run(process.execPath, ["--import", "tsx", "scripts/create-admin.ts", "--email", s.email, "--password", s.password, "--name", s.name, "--role", s.role], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, DATABASE_URL: "", PWNED_PASSWORDS_URL: "off", ...testSecrets() },
    });
  }
  return dataDir;
}
