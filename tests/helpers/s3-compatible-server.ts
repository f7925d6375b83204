/**
 * A real S3-compatible server for tests: @20minutes/s3rver (a maintained fork of s3rver, which checks
 * AWS Signature Version 4) in a child process on 127.0.0.1, storing objects in a temporary folder.
 *
 *   const s3 = await startS3CompatibleServer({ accessKeyId, secretAccessKey, buckets: ["loan-documents"] });
 *   createS3Storage({ endpoint: s3.endpoint, ... })
 *   await s3.close();
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type S3CompatibleServer = {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** Where the server keeps buckets and objects (removed by close). */
  directory: string;
  close: () => Promise<void>;
};

export async function startS3CompatibleServer(options: {
  accessKeyId: string;
  secretAccessKey: string;
  buckets: string[];
}): Promise<S3CompatibleServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "portal-s3rver-"));
  const child = spawn(process.execPath, ["--openssl-legacy-provider", path.join(import.meta.dirname, "s3rver-process.mjs")], {
    env: {
      ...process.env,
      S3_TEST_ACCESS_KEY_ID: options.accessKeyId,
      S3_TEST_SECRET_ACCESS_KEY: options.secretAccessKey,
      S3_TEST_DIRECTORY: directory,
      S3_TEST_BUCKETS: options.buckets.join(","),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`S3-compatible server did not start within 15 s:\n${output}`)), 15_000);
      child.stdout!.on("data", () => {
        const match = /\{"port":(\d+)\}/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`S3-compatible server exited before listening:\n${output}`));
      });
    });
    return {
      endpoint: `http://127.0.0.1:${port}`,
      directory,
      close: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        await exited;
        fs.rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child.kill("SIGKILL");
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
