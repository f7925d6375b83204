/**
 * A rendered document's bytes, handed from entry.server.tsx to the Node entry (server/fetch-bridge.ts)
 * beside its Response. The Response still carries the same bytes as its body (anything that reads it,
 * a test or React Router, gets the page); the Node entry takes them from here instead of reading the
 * body stream back into a buffer, which cost a signed-in page about a twentieth of its server time
 * together with building the Response from a string (decision 0058).
 */
const documents = new WeakMap<Response, Buffer>();

/** The Response for a rendered document, its bytes remembered for the Node entry. */
export function documentResponse(body: Buffer, init: ResponseInit): Response {
  const response = new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), init);
  documents.set(response, body);
  return response;
}

/** The bytes of a Response made by documentResponse, once; undefined for any other Response. */
export function takeDocumentBytes(response: Response): Buffer | undefined {
  const body = documents.get(response);
  documents.delete(response);
  return body;
}
