// Child process of tests/helpers/s3-compatible-server.ts: runs @20minutes/s3rver (an S3-compatible
// server that checks SigV4 signatures) on a loopback port and prints {"port":N} once it listens.
// A separate process because s3rver's continuation tokens use DES, which Node's OpenSSL 3 offers only
// with --openssl-legacy-provider, a flag the test process itself should not run with.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const S3rver = require("@20minutes/s3rver");
// s3rver ships one hard-wired key pair; the test's own pair replaces it so a wrong secret is refused.
const AWSAccount = require("@20minutes/s3rver/lib/models/account");

const { S3_TEST_ACCESS_KEY_ID, S3_TEST_SECRET_ACCESS_KEY, S3_TEST_DIRECTORY, S3_TEST_BUCKETS } = process.env;
if (!S3_TEST_ACCESS_KEY_ID || !S3_TEST_SECRET_ACCESS_KEY || !S3_TEST_DIRECTORY) {
  console.error("S3_TEST_ACCESS_KEY_ID, S3_TEST_SECRET_ACCESS_KEY and S3_TEST_DIRECTORY are required");
  process.exit(2);
}
AWSAccount.DUMMY_ACCOUNT.revokeAccessKey("S3RVER");
AWSAccount.DUMMY_ACCOUNT.createKeyPair(S3_TEST_ACCESS_KEY_ID, S3_TEST_SECRET_ACCESS_KEY);

const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  silent: true,
  directory: S3_TEST_DIRECTORY,
  vhostBuckets: false,
  configureBuckets: (S3_TEST_BUCKETS ?? "").split(",").filter(Boolean).map((name) => ({ name })),
});
const address = await server.run();
console.log(JSON.stringify({ port: address.port }));

const stop = () => server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The test process died without stopping us: do not linger.
process.on("disconnect", stop);
