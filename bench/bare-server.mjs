// The reference for the public-page bench: a bare node:http server answering every request with one
// recorded response (status, headers and body read from a JSON file), from memory. It does nothing else,
// so what it serves per second is what Node itself can do with these bytes on this machine.
import { Buffer } from "node:buffer";
import fs from "node:fs";
import http from "node:http";

const recorded = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const body = Buffer.from(recorded.body, "base64");
const headers = recorded.headers;
const server = http.createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
