import { DEFAULT_CHARGE_OFF_DAYS } from "~/domain/delinquency";
import { parseMoney } from "~/domain/money";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { signingIdentity, type SigningIdentity } from "~/server/platform/crypto/signing-identity.server";
import type { LenderLicensing } from "~/content/company";
import { currentPrivacyNotice } from "~/content/legal/privacy-notice";
import { DEFAULT_MAX_APR_PERCENT, OFFER_LIMITS } from "~/domain/loan-offers";
import { isValidRoutingNumber } from "~/domain/routing-number";
import { DEFAULT_SANCTIONS_MATCH_THRESHOLD } from "~/domain/sanctions";
import type { LateFeePolicy } from "~/domain/loan-servicing";

/**
 * The whole environment, validated once at start-up. Nothing else in the server reads process.env,
 * so a bad value stops the process with a message instead of failing later on a request.
 */

const postgresUrl = z
  .string()
  .url("must be a URL such as postgres://user:pass@host:5432/db")
  .refine((v) => /^postgres(ql)?:\/\//.test(v), "must start with postgres:// or postgresql://");

const smtpUrl = z
  .string()
  .url("must be a URL such as smtps://user:pass@smtp.example.com:465")
  .refine((v) => /^smtps?:\/\//.test(v), "must start with smtp:// or smtps://");

/** ENCRYPTION_KEY: one or more comma-separated `v<N>:<base64 of 32 bytes>`; the first is current. */
const encryptionKeys = z.string().transform((value, ctx) => {
  const keys: { version: number; key: Buffer }[] = [];
  for (const part of value.split(",").map((p) => p.trim()).filter(Boolean)) {
    const match = /^v(\d{1,4}):([A-Za-z0-9+/=_-]+)$/.exec(part);
    const key = match ? Buffer.from(match[2]!, "base64") : undefined;
    if (!match || !key || key.length !== 32) {
      ctx.addIssue({
        code: "custom",
        message: "must be v<N>:<base64 of 32 random bytes>, comma-separated for rotation (newest first)",
      });
      return z.NEVER;
    }
    keys.push({ version: Number(match[1]), key });
  }
  if (keys.length === 0) {
    ctx.addIssue({ code: "custom", message: "must name at least one key" });
    return z.NEVER;
  }
  if (new Set(keys.map((k) => k.version)).size !== keys.length) {
    ctx.addIssue({ code: "custom", message: "key versions must be unique" });
    return z.NEVER;
  }
  return keys;
});

const emptyAsUndefined = (v: unknown) => (v === "" ? undefined : v);

/** PWNED_PASSWORDS_URL: the range API's base (the 5-character prefix is appended); "" or "off" disables. */
const pwnedPasswordsUrl = z
  .string()
  .default("https://api.pwnedpasswords.com/range/")
  .transform((value, ctx) => {
    const v = value.trim();
    if (v === "" || v.toLowerCase() === "off") return null;
    if (!/^https?:\/\/[^\s]+$/i.test(v) || !URL.canParse(v)) {
      ctx.addIssue({ code: "custom", message: 'must be an http(s) URL such as https://api.pwnedpasswords.com/range/, or "off"' });
      return z.NEVER;
    }
    return v;
  });

/** S3_ENDPOINT: scheme, host and port of an S3-compatible service; never credentials in the URL. */
const s3Endpoint = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), "must be an http(s) URL such as https://s3.us-east-1.amazonaws.com")
  .refine((v) => {
    const url = new URL(v);
    return !url.username && !url.password && !url.search && !url.hash;
  }, "must not contain credentials, a query or a fragment (use S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)")
  .transform((v) => v.replace(/\/+$/, ""));

/** A line of the footer: one line of printable text, so a stray newline or markup-like value is refused at start-up. */
const footerText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\p{Cc}<>]*$/u, "must be one line of plain text (no control characters, < or >)");

/** STATE_LICENSES: `;`-separated, e.g. "California Financing Law License 60DBO-12345; Delaware Licensed Lender 012345". */
const stateLicenses = z
  .string()
  .transform((v) => v.split(";").map((part) => part.trim()).filter(Boolean))
  .pipe(z.array(footerText(200)).max(60, "must name at most 60 licences"));

/** A dollar amount setting ("25", "25.00") as integer cents. */
function dollarsSetting(fallback: string) {
  return z
    .string()
    .default(fallback)
    .refine((v) => /^\d{1,6}(\.\d{1,2})?$/.test(v.trim()), "must be dollars and cents such as 25.00")
    .transform((v) => parseMoney(v)!);
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // What the operator declared, when server.js had to set NODE_ENV=production for React (see loadConfig).
  APP_ENV: z.preprocess(emptyAsUndefined, z.enum(["development", "production", "test"]).optional()),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.preprocess(emptyAsUndefined, postgresUrl.optional()),
  APP_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  ENCRYPTION_KEY: z.preprocess(emptyAsUndefined, encryptionKeys.optional()),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.string().url("must be an absolute URL").optional()),
  SMTP_URL: z.preprocess(emptyAsUndefined, smtpUrl.optional()),
  MAIL_FROM: z.string().min(3).default("Private Loans <no-reply@privateloans.local>"),
  LENDER_NOTIFY_EMAIL: z.string().email("must be an e-mail address").default("loans@privateloans.local"),
  TRANSITION_MS: z.coerce.number().int().min(0).max(10_000).default(1500),
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  TLS_CERT_FILE: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TLS_KEY_FILE: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  SIGNING_CERT_FILE: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  SIGNING_KEY_FILE: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  HTTP_REDIRECT_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  // About 30 KB of memory and a file descriptor each (decision 0046): 10,000 are ~300 MB over the idle ~170 MB.
  EVENT_STREAMS_MAX: z.coerce.number().int().min(1).max(50_000).default(10_000),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(100).max(15 * 60_000).default(5000),
  ORIGINATION_FEE_PERCENT: z
    .string()
    .default("1.00")
    .refine((v) => /^\d{1,2}(\.\d{1,2})?$/.test(v.trim()) && Number(v) <= OFFER_LIMITS.originationFeeMaxPercent, `must be a percent from 0 to ${OFFER_LIMITS.originationFeeMaxPercent} with at most two decimals, such as 1.50`)
    .transform((v) => Number(v.trim())),
  MAX_APR: z
    .string()
    .default(String(DEFAULT_MAX_APR_PERCENT))
    .refine((v) => /^\d{1,2}(\.\d{1,2})?$/.test(v.trim()) && Number(v) > 0, "must be a percent above 0 and below 100 with at most two decimals, such as 35.99")
    .transform((v) => Number(v.trim())),
  FOUR_EYES_THRESHOLD: z
    .string()
    .default("250000")
    .refine((v) => /^\d{1,8}(\.\d{1,2})?$/.test(v.trim()) && Number(v) > 0, "must be a dollar amount above 0 such as 250000")
    .transform((v) => parseMoney(v)!),
  OFFER_EXPIRY_DAYS: z.coerce.number().int().min(OFFER_LIMITS.expiryDaysMin).max(OFFER_LIMITS.expiryDaysMax).default(30),
  LATE_FEE_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(15),
  LATE_FEE_AMOUNT: dollarsSetting("25.00"),
  LATE_FEE_PERCENT: z
    .string()
    .default("5")
    .refine((v) => /^\d{1,2}(\.\d{1,3})?$/.test(v.trim()) && Number(v) <= 25, "must be a percent from 0 to 25 with at most three decimals, such as 5")
    .transform((v) => Math.round(Number(v.trim()) * 1000)),
  LATE_FEE_CAP: dollarsSetting("50.00"),
  // Days past due at which the collections queue proposes a loan for charge-off.
  CHARGE_OFF_DAYS: z.coerce.number().int().min(60).max(720).default(DEFAULT_CHARGE_OFF_DAYS),
  PAYMENT_REMINDER_DAYS: z.coerce.number().int().min(1).max(30).default(5),
  ACH_IMMEDIATE_DESTINATION: z
    .string()
    .default("091000019")
    .refine(
      (v) => isValidRoutingNumber(v.trim()),
      "must be a 9-digit ABA routing number: its first two digits a Federal Reserve routing symbol (01-12, 21-32, 61-72 or 80) and a valid check digit",
    ),
  ACH_IMMEDIATE_ORIGIN: z
    .string()
    .default("1234567890")
    .refine((v) => /^[0-9A-Za-z ]{10}$/.test(v), "must be exactly 10 letters or digits (the originator's company id)"),
  ACH_COMPANY_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^[0-9A-Za-z ]{10}$/, "must be exactly 10 letters or digits").optional()),
  ACH_COMPANY_NAME: z
    .string()
    .default("PRIVATE LOANS")
    .refine((v) => /^[A-Za-z0-9 &.,'-]{1,16}$/.test(v.trim()), "must be 1 to 16 letters, digits or spaces"),
  ACH_ORIGINATING_DFI: z.preprocess(emptyAsUndefined, z.string().regex(/^\d{8}$/, "must be 8 digits (the first 8 of the bank's routing number)").optional()),
  /** The Immediate Destination Name of ACH files: the bank at ACH_IMMEDIATE_DESTINATION (see loadConfig for its default). */
  ACH_DESTINATION_NAME: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((v) => /^[A-Za-z0-9 &.,'/()-]{1,23}$/.test(v.trim()), "must be 1 to 23 letters, digits or spaces (the name of the bank that receives the ACH files)")
      .optional(),
  ),
  /** Days after signing from which staff may Cancel a loan not funded yet. */
  FUNDING_DEADLINE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Banking days after a prenote's effective date without a return before its account counts as validated. */
  ACH_PRENOTE_WAIT_DAYS: z.coerce.number().int().min(1).max(10).default(2),
  /** From this Jaro-Winkler similarity (0-1) a name is a potential sanctions match (decision 0089). */
  SANCTIONS_MATCH_THRESHOLD: z
    .string()
    .default(String(DEFAULT_SANCTIONS_MATCH_THRESHOLD))
    .refine((v) => /^(0(\.\d{1,4})?|1(\.0{1,4})?)$/.test(v.trim()), "must be a number from 0 to 1 with at most four decimals, such as 0.90")
    .transform((v) => Number(v.trim())),
  ORPHAN_GRACE_SECONDS: z.coerce.number().int().min(0).max(7 * 86_400).default(3600),
  /** How often the Download My Data job looks for requests (the browser tests set it short). */
  DATA_EXPORT_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * The storage each person may take with us, in MB: their uploaded documents plus their Download My
   * Data file. Below 4 GB (the ZIP writer has no ZIP64).
   */
  PERSON_STORAGE_CAP_MB: z.coerce.number().int().min(1).max(3_500).default(512),
  /**
   * The privacy notice version treated as current (default: the one in
   * app/content/legal/privacy-notice.ts). Raising it asks every applicant to read the notice again at
   * their next sign-in; the browser tests use it to play a changed notice.
   */
  PRIVACY_NOTICE_VERSION: z.preprocess(emptyAsUndefined, z.string().trim().refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "must be a date, YYYY-MM-DD").optional()),
  RECAPTCHA_SITE_KEY: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  RECAPTCHA_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  PWNED_PASSWORDS_URL: pwnedPasswordsUrl,
  ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.string().email("must be an e-mail address").optional()),
  ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8, "must be at least 8 characters").optional()),
  PWNED_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(1500),
  S3_ENDPOINT: z.preprocess(emptyAsUndefined, s3Endpoint.optional()),
  S3_REGION: z.preprocess(
    emptyAsUndefined,
    z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a region name such as us-east-1").default("us-east-1"),
  ),
  S3_BUCKET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be an S3 bucket name (3–63 lower-case letters, digits, dots, hyphens)")
      .optional(),
  ),
  S3_ACCESS_KEY_ID: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  S3_FORCE_PATH_STYLE: z.preprocess(
    emptyAsUndefined,
    z
      .enum(["true", "false", "1", "0"])
      .default("true")
      .transform((v) => v === "true" || v === "1"),
  ),
  S3_SERVER_SIDE_ENCRYPTION: z.preprocess(emptyAsUndefined, z.enum(["AES256", "aws:kms"]).optional()),
  LENDER_LEGAL_NAME: z.preprocess(emptyAsUndefined, footerText(120).min(2, "must be at least 2 characters").optional()),
  NMLS_ID: z.preprocess(emptyAsUndefined, z.string().trim().regex(/^\d{1,12}$/, "must be the NMLS ID's digits, such as 123456").optional()),
  STATE_LICENSES: z.preprocess(emptyAsUndefined, stateLicenses.optional()),
});

export type EncryptionKey = { version: number; key: Buffer };

export type S3Config = {
  /** Without a trailing slash, e.g. https://s3.us-east-1.amazonaws.com or http://127.0.0.1:9000 */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** true: endpoint/bucket/key; false: bucket.endpoint/key (virtual-hosted). */
  forcePathStyle: boolean;
  serverSideEncryption?: "AES256" | "aws:kms";
};

export type AppConfig = {
  /** What the operator declared (APP_ENV, else NODE_ENV): not React's mode, which is production outside `npm run dev`. */
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  /** Secrets generated here and production not declared: /dev/mailbox may answer this machine. */
  localRun: boolean;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  appSecret: string;
  encryptionKeys: EncryptionKey[];
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  lenderNotifyEmail: string;
  transitionMs: number;
  trustProxy: boolean;
  /** Certificate chain and private key (PEM) when this process terminates TLS itself. */
  tls: { cert: Buffer; key: Buffer } | undefined;
  /**
   * The certificate and RSA key (PEM) that digitally sign stored agreements; undefined means a
   * self-signed one generated into DATA_DIR/secrets on first use (signing-identity.server.ts).
   */
  signing: SigningIdentity | undefined;
  /** A plain-HTTP port whose only answer is a redirect to PUBLIC_URL (needs tls). */
  httpRedirectPort: number | undefined;
  shutdownTimeoutMs: number;
  /** First retry delay of an undelivered e-mail; each further attempt waits twice as long (capped at 15 minutes). */
  mailRetryBaseMs: number;
  /** The approve dialog's default Origination Fee (%) (a percent of the amount, at most two decimals). */
  originationFeePercent: number;
  /** The highest APR (percent) an offer may carry; the approve dialog and the server refuse more. */
  maxAprPercent: number;
  /** Days an offer stays open before the expiry job closes it. */
  offerExpiryDays: number;
  /** Approvals of this many cents or more are proposals another staff member must confirm. */
  fourEyesThresholdCents: number;
  /** Days past due at which a loan is proposed for charge-off on the collections queue. */
  chargeOffDays: number;
  /** Late fees: after the grace days, the larger of the flat amount and the percent of the installment, capped. */
  lateFeePolicy: LateFeePolicy;
  /** Days before each due date that the payment reminder goes out. */
  paymentReminderDays: number;
  /** The originator of ACH debit files (NACHA): the lender's bank and the company id it assigned. */
  ach: { immediateDestination: string; immediateDestinationName: string; immediateOrigin: string; companyId: string; companyName: string; originatingDfi: string };
  /** Names at least this similar (Jaro-Winkler, 0 to 1) to a sanctions list name are potential matches. */
  sanctionsMatchThreshold: number;
  /** Days after signing from which a loan not funded yet may be cancelled. */
  fundingDeadlineDays: number;
  /** Banking days a prenote waits for a return before its account counts as validated. */
  achPrenoteWaitDays: number;
  /** Stored objects younger than this are never swept as orphans (another instance may be about to commit them). */
  orphanGraceSeconds: number;
  /** How often the Download My Data job looks for pending requests (milliseconds). */
  dataExportPollMs: number;
  /** What one person's documents and Download My Data file may take in storage together (bytes). */
  personStorageCapBytes: number;
  /** The privacy notice version applicants must have accepted (YYYY-MM-DD). */
  privacyNoticeVersion: string;
  /** How long a public page is served from the rendered-bytes cache before it is rendered again; 0 turns the cache off. */
  pageCacheSeconds: number;
  /** Open live-update streams this instance holds at most; past it new ones get 503 and Retry-After. */
  eventStreamsMax: number;
  /** Server processes on this machine (node:cluster workers sharing the port); 1 means this process serves. */
  webConcurrency: number;
  /** Google reCAPTCHA v2 keys; undefined means the self-hosted ALTCHA proof of work is used. */
  recaptcha: { siteKey: string; secretKey: string } | undefined;
  /** Base URL of the breached-password range API, or null when the check is turned off. */
  pwnedPasswordsUrl: string | null;
  pwnedTimeoutMs: number;
  /** A first admin to create at start-up when no admin exists yet (for a first look). */
  bootstrapAdmin: { email: string; password: string } | undefined;
  /** S3-compatible document storage; undefined means the local folder in DATA_DIR. */
  s3: S3Config | undefined;
  /** The footer's licensing line; undefined when none of its settings is set. */
  licensing: LenderLicensing | undefined;
  /** Human-readable notes worth one log line each (for example: secrets generated). */
  notices: string[];
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads a secret file from DATA_DIR, or creates it (mode 0600) with a fresh random value. */
export function readOrCreateSecret(dir: string, name: string, make: () => string): { value: string; created: boolean } {
  const file = path.join(dir, name);
  try {
    return { value: fs.readFileSync(file, "utf8").trim(), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const value = make();
  // 'wx' so two processes racing on a new folder never overwrite each other's secret.
  try {
    fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: "wx" });
    return { value, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { value: fs.readFileSync(file, "utf8").trim(), created: false };
  }
}

/** Read once at start-up, so a wrong path stops the server with a message instead of a TLS error later. */
function readTlsFiles(certFile: string, keyFile: string, problems: string[]): { cert: Buffer; key: Buffer } | undefined {
  return readPemFiles(["TLS_CERT_FILE", certFile], ["TLS_KEY_FILE", keyFile], problems);
}

function readPemFiles([certName, certFile]: [string, string], [keyName, keyFile]: [string, string], problems: string[]): { cert: Buffer; key: Buffer } | undefined {
  const read = (name: string, file: string) => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      problems.push(`${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return undefined;
    }
  };
  const cert = read(certName, certFile);
  const key = read(keyName, keyFile);
  return cert && key ? { cert, key } : undefined;
}

/** The configured signing pair, checked at start-up (a key that does not fit its certificate would fail every signing). */
function readSigningFiles(certFile: string, keyFile: string, problems: string[]): SigningIdentity | undefined {
  const files = readPemFiles(["SIGNING_CERT_FILE", certFile], ["SIGNING_KEY_FILE", keyFile], problems);
  if (!files) return undefined;
  try {
    return signingIdentity(files.cert.toString("utf8"), files.key.toString("utf8"));
  } catch (error) {
    problems.push(`SIGNING_CERT_FILE, SIGNING_KEY_FILE: ${(error as Error).message}`);
    return undefined;
  }
}

/** The bank of the default ACH_IMMEDIATE_DESTINATION (091000019), so a local install's files are consistent. */
const DEFAULT_ACH_DESTINATION_NAME = "WELLS FARGO BANK";

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".") || "environment"}: ${i.message}`));
  }
  const e = parsed.data;
  // React picks its production or development build from NODE_ENV when it loads, so the built server
  // always runs with NODE_ENV=production (server.js sets it) and keeps what the operator declared in
  // APP_ENV. The deployment rules below follow the declaration, not React's mode.
  const declaredEnv = e.APP_ENV ?? e.NODE_ENV;
  const isProduction = declaredEnv === "production";
  const problems: string[] = [];
  if (isProduction && !e.APP_SECRET) problems.push("APP_SECRET: required when NODE_ENV=production");
  if (isProduction && !e.ENCRYPTION_KEY) problems.push("ENCRYPTION_KEY: required when NODE_ENV=production");
  if (!e.ADMIN_EMAIL !== !e.ADMIN_PASSWORD) problems.push("ADMIN_EMAIL, ADMIN_PASSWORD: set both or neither");
  if (!e.RECAPTCHA_SITE_KEY !== !e.RECAPTCHA_SECRET_KEY) {
    problems.push("RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET_KEY: set both (reCAPTCHA) or neither (ALTCHA)");
  }
  const s3Enabled = Boolean(e.S3_ENDPOINT || e.S3_BUCKET);
  if (s3Enabled) {
    const missing = (["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((name) => !e[name]);
    if (missing.length) problems.push(`${missing.join(", ")}: required when S3_ENDPOINT or S3_BUCKET is set`);
  } else {
    // Credentials or options without a target would silently mean "local folder": refuse instead.
    const stray = ["S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE", "S3_SERVER_SIDE_ENCRYPTION"]
      .filter((name) => emptyAsUndefined(env[name]) !== undefined);
    if (stray.length) problems.push(`S3_BUCKET, S3_ENDPOINT: set S3_BUCKET (or S3_ENDPOINT) to use S3 storage (${stray.join(", ")} is set)`);
  }
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL) {
    problems.push("WEB_CONCURRENCY: more than one process needs DATABASE_URL (the embedded database allows one process)");
  }
  // The default name belongs to the default routing number; another bank's files must carry that bank's name.
  if (emptyAsUndefined(env.ACH_IMMEDIATE_DESTINATION) !== undefined && !e.ACH_DESTINATION_NAME) {
    problems.push("ACH_DESTINATION_NAME: required when ACH_IMMEDIATE_DESTINATION is set (the name of that bank, up to 23 characters)");
  }
  if (!e.TLS_CERT_FILE !== !e.TLS_KEY_FILE) problems.push("TLS_CERT_FILE, TLS_KEY_FILE: set both (serve HTTPS) or neither");
  const tls = e.TLS_CERT_FILE && e.TLS_KEY_FILE ? readTlsFiles(e.TLS_CERT_FILE, e.TLS_KEY_FILE, problems) : undefined;
  if (!e.SIGNING_CERT_FILE !== !e.SIGNING_KEY_FILE) {
    problems.push("SIGNING_CERT_FILE, SIGNING_KEY_FILE: set both (the lender's signing certificate) or neither (a self-signed one in DATA_DIR/secrets)");
  }
  const signing = e.SIGNING_CERT_FILE && e.SIGNING_KEY_FILE ? readSigningFiles(e.SIGNING_CERT_FILE, e.SIGNING_KEY_FILE, problems) : undefined;
  if (e.HTTP_REDIRECT_PORT !== undefined && !e.TLS_CERT_FILE) {
    problems.push("HTTP_REDIRECT_PORT: only with TLS_CERT_FILE and TLS_KEY_FILE (it redirects to this server's HTTPS)");
  }
  // With TLS here, cookies must be Secure and redirects must land on https: an http PUBLIC_URL defeats both.
  if (e.TLS_CERT_FILE && e.PUBLIC_URL && !e.PUBLIC_URL.startsWith("https://")) {
    problems.push("PUBLIC_URL: must be an https:// address when TLS_CERT_FILE is set");
  }
  if (problems.length) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  const notices: string[] = [];
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError([`DATA_DIR: cannot create ${dataDir} (${(error as Error).message})`]);
  }

  let appSecret = e.APP_SECRET;
  let keys = e.ENCRYPTION_KEY;
  if (!appSecret || !keys) {
    const secretsDir = path.join(dataDir, "secrets");
    fs.mkdirSync(secretsDir, { recursive: true, mode: 0o700 });
    if (!appSecret) {
      const s = readOrCreateSecret(secretsDir, "app-secret", () => randomBytes(48).toString("base64url"));
      appSecret = s.value;
      if (s.created) notices.push(`Generated APP_SECRET into ${path.join(secretsDir, "app-secret")} (mode 0600).`);
    }
    if (!keys) {
      const s = readOrCreateSecret(secretsDir, "encryption-key", () => `v1:${randomBytes(32).toString("base64")}`);
      const fromFile = encryptionKeys.safeParse(s.value);
      if (!fromFile.success) {
        throw new ConfigError([`ENCRYPTION_KEY: the file ${path.join(secretsDir, "encryption-key")} is not a valid key`]);
      }
      keys = fromFile.data;
      if (s.created) notices.push(`Generated ENCRYPTION_KEY into ${path.join(secretsDir, "encryption-key")} (mode 0600).`);
    }
  }

  const s3: S3Config | undefined =
    s3Enabled && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
      ? {
          endpoint: e.S3_ENDPOINT ?? `https://s3.${e.S3_REGION}.amazonaws.com`,
          region: e.S3_REGION,
          bucket: e.S3_BUCKET ?? "loan-documents",
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          ...(e.S3_SERVER_SIDE_ENCRYPTION ? { serverSideEncryption: e.S3_SERVER_SIDE_ENCRYPTION } : {}),
        }
      : undefined;
  if (s3 && isProduction && s3.endpoint.startsWith("http:")) {
    notices.push(`S3_ENDPOINT is plain http (${s3.endpoint}): documents travel unencrypted to the storage server.`);
  }

  if (isProduction && !signing) {
    notices.push("SIGNING_CERT_FILE is not set: agreements are signed with a self-signed certificate generated into DATA_DIR/secrets.");
  }
  if (isProduction && !tls && !e.TRUST_PROXY) {
    notices.push("Serving plain HTTP: set TLS_CERT_FILE and TLS_KEY_FILE, or run behind a TLS-terminating proxy with TRUST_PROXY=true.");
  }

  // The server made its own secrets and nobody declared production: this machine's own run (npm start
  // on a laptop), where /dev/mailbox stands in for a mail server. A deployment that brings its own
  // secrets is not one, whatever NODE_ENV says.
  const localRun = !isProduction && !e.APP_SECRET && !e.ENCRYPTION_KEY;

  const publicUrl = (e.PUBLIC_URL ?? `${tls ? "https" : "http"}://localhost:${e.PORT}`).replace(/\/+$/, "");
  return Object.freeze({
    nodeEnv: declaredEnv,
    isProduction,
    localRun,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    appSecret,
    encryptionKeys: keys,
    publicUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    lenderNotifyEmail: e.LENDER_NOTIFY_EMAIL,
    transitionMs: e.TRANSITION_MS,
    trustProxy: e.TRUST_PROXY,
    tls,
    signing,
    httpRedirectPort: e.HTTP_REDIRECT_PORT,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    orphanGraceSeconds: e.ORPHAN_GRACE_SECONDS,
    dataExportPollMs: e.DATA_EXPORT_POLL_MS,
    personStorageCapBytes: e.PERSON_STORAGE_CAP_MB * 1024 * 1024,
    privacyNoticeVersion: e.PRIVACY_NOTICE_VERSION ?? currentPrivacyNotice.version,
    mailRetryBaseMs: e.MAIL_RETRY_BASE_MS,
    originationFeePercent: e.ORIGINATION_FEE_PERCENT,
    maxAprPercent: e.MAX_APR,
    offerExpiryDays: e.OFFER_EXPIRY_DAYS,
    fourEyesThresholdCents: e.FOUR_EYES_THRESHOLD,
    chargeOffDays: e.CHARGE_OFF_DAYS,
    lateFeePolicy: { graceDays: e.LATE_FEE_GRACE_DAYS, flatCents: e.LATE_FEE_AMOUNT, percentMilli: e.LATE_FEE_PERCENT, capCents: e.LATE_FEE_CAP },
    paymentReminderDays: e.PAYMENT_REMINDER_DAYS,
    ach: {
      immediateDestination: e.ACH_IMMEDIATE_DESTINATION.trim(),
      immediateDestinationName: (e.ACH_DESTINATION_NAME ?? DEFAULT_ACH_DESTINATION_NAME).trim().toUpperCase(),
      immediateOrigin: e.ACH_IMMEDIATE_ORIGIN,
      companyId: e.ACH_COMPANY_ID ?? e.ACH_IMMEDIATE_ORIGIN,
      companyName: e.ACH_COMPANY_NAME.trim().toUpperCase(),
      originatingDfi: e.ACH_ORIGINATING_DFI ?? e.ACH_IMMEDIATE_DESTINATION.trim().slice(0, 8),
    },
    sanctionsMatchThreshold: e.SANCTIONS_MATCH_THRESHOLD,
    fundingDeadlineDays: e.FUNDING_DEADLINE_DAYS,
    achPrenoteWaitDays: e.ACH_PRENOTE_WAIT_DAYS,
    pageCacheSeconds: e.PAGE_CACHE_SECONDS,
    eventStreamsMax: e.EVENT_STREAMS_MAX,
    webConcurrency: e.WEB_CONCURRENCY,
    recaptcha:
      e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET_KEY
        ? { siteKey: e.RECAPTCHA_SITE_KEY, secretKey: e.RECAPTCHA_SECRET_KEY }
        : undefined,
    pwnedPasswordsUrl: e.PWNED_PASSWORDS_URL,
    pwnedTimeoutMs: e.PWNED_TIMEOUT_MS,
    bootstrapAdmin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    s3: s3 ? Object.freeze(s3) : undefined,
    licensing:
      e.LENDER_LEGAL_NAME || e.NMLS_ID || e.STATE_LICENSES?.length
        ? Object.freeze({ legalName: e.LENDER_LEGAL_NAME, nmlsId: e.NMLS_ID, stateLicenses: e.STATE_LICENSES ?? [] })
        : undefined,
    notices,
  });
}

let current: AppConfig | undefined;

/** The process-wide configuration; set once by the server entry (or a test) through setConfig. */
export function getConfig(): AppConfig {
  if (!current) throw new Error("Configuration not loaded: the server entry must call setConfig(loadConfig()) first");
  return current;
}

export function setConfig(config: AppConfig): void {
  current = config;
}
