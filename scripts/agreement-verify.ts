// npm run agreement:verify <file>: checks a signed agreement PDF's digital signature (every byte but the
// signature covered, the digest, the signature over it, the lender's certificate) and prints "valid" with
// the signer and time (exit 0), or what fails (exit 1). Needs no database, only the configuration that
// names the lender's certificate (SIGNING_CERT_FILE, or the one generated in DATA_DIR/secrets).
import { runAgreementVerify } from "~/server/offers/index.server";
import { ConfigError, loadConfig, setConfig } from "~/server/platform/config.server";

try {
  const config = loadConfig(process.env);
  setConfig(config);
  process.exitCode = runAgreementVerify(process.argv.slice(2), console, config);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Cannot verify the agreement: ${(error as Error).message}`);
  process.exitCode = 1;
}
