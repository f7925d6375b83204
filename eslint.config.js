import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * The entity modules under app/server (decision 0083). Each owns its tables and shows the rest of the
 * code one front door, <module>/index.server.ts; platform/ is the layer under them all.
 */
const MODULES = ["accounts", "applications", "conversation", "loans", "offers", "public-site", "retention", "sanctions", "staff"];
const FRONT_DOOR = "Import another module through its front door, ~/server/<module>/index.server (decision 0083)";

/** The tables each part owns (decision 0083): only the owner imports a table from the schema; retention/ reads them all. */
export const TABLES = {
  "platform": ["auditActivityHourly", "auditLog", "emailOutbox", "jobRuns", "rateLimit", "rateLimitHits", "rowCounts"],
  "accounts": ["account", "adminMfa", "dataExports", "emailVerificationCodes", "notificationPreferences", "passkeys", "privacyAcceptances", "profiles", "session", "sessionMfa", "twoFactor", "user", "verification", "webauthnChallenges"],
  "applications": ["applicationAssignments", "applicationDrafts", "applicationStatusCounts", "approvalProposals", "bankAccounts", "draftDocuments", "loanApplications", "loanDocuments"],
  "conversation": ["applicationEvents", "applicationMessages", "conversationCounts", "conversationNotices", "conversationReaderTotals", "conversationReads", "requestItems"],
  "loans": ["achBatches", "achReturnImports", "achTraceSequences", "approvedLoans", "autopayAuthorizations", "bankAccountRestrictions", "bankAccountValidations", "chargeOffRequests", "collectionContacts", "delinquencyRolls", "delinquencySnapshots", "delinquencyTotals", "hardshipRequests", "loanFees", "loanFlags", "loanFundings", "loanModifications", "loanPaymentAccounts", "loanPayments", "loanProtections", "paymentPromises", "servicingNotices"],
  "offers": ["esignConsents", "loanOffers", "signedAgreements"],
  "public-site": ["contactMessages", "testimonials"],
  "sanctions": ["sanctionsEntries", "sanctionsListLoads", "sanctionsMatches", "sanctionsScreenings"],
  "staff": ["clientCounts", "reportRollups", "staffInvitations", "userRoles"],
};

/**
 * The one exception to the table rule: files that import the whole schema as one object, and why. No
 * module queries another module's tables (decision 0083); a new exception needs its reason here.
 */
export const WHOLE_SCHEMA = {
  "app/server/accounts/auth.server.ts": "Better Auth's drizzle adapter takes the schema as one object; it stores rate_limit, and the sign-in hook reads user_roles",
};

const SCHEMA = "~/server/platform/db/schema.server";
const TABLE_OWNER = "Only the module that owns this table queries it: call that module's front door (decision 0083)";
const partOf = (file) => file.split("/")[2];

/** Import rules of one part of app/server; `file` names a file of WHOLE_SCHEMA. */
function serverImports(part, file) {
  const foreignTables = Object.entries(TABLES)
    .filter(([owner]) => owner !== part)
    .flatMap(([, names]) => names);
  const patterns =
    part === "platform"
      ? [{ regex: "^~/server/(?!platform/)", message: "platform/ imports nothing from the modules above it (decision 0083)" }]
      : [
          // A module's files may import platform/, their own module, and other modules' front doors only.
          { regex: `^~/server/(?!platform/|${part}/|[^/]+/index\\.server$)`, message: FRONT_DOOR },
          { regex: "^\\.\\./(?!platform/(?!db/schema\\.server)|\\.\\./domain/|\\.\\./content/)", message: FRONT_DOOR },
        ];
  // retention/ disposes of every module's expired records: it reads every table.
  const paths = part === "retention" || (file && WHOLE_SCHEMA[file]) ? [] : [{ name: SCHEMA, importNames: foreignTables, message: TABLE_OWNER }];
  return { "no-restricted-imports": ["error", { paths, patterns }] };
}

const serverBoundaries = [
  ...["platform", ...MODULES].map((part) => ({ files: [`app/server/${part}/**`], rules: serverImports(part) })),
  ...Object.keys(WHOLE_SCHEMA).map((file) => ({ files: [file], rules: serverImports(partOf(file), file) })),
];

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", "drizzle/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-empty-object-type": "off",
      // Route modules and server modules must not reach into each other's internals through process.env.
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through app/server/platform/config.server.ts" },
      ],
    },
  },
  {
    files: ["server.js", "server/app.ts", "scripts/**", "bench/**", "tests/**", "*.config.ts", "app/server/platform/config.server.ts"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // Components render plain data: their types come from app/domain, never from a server module.
    files: ["app/components/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["~/server/*"], message: "Import view types from ~/domain (e.g. ~/domain/views/*)" }] }],
    },
  },
  ...serverBoundaries,
  {
    // Routes, the app shell, the server entry and the commands use modules through their front doors.
    files: ["app/routes/**", "app/*.tsx", "app/*.ts", "server/**", "scripts/**", "bench/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^~/server/(?!platform/|[^/]+/index\\.server$)", message: FRONT_DOOR }] }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
