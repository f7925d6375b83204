import { describe, expect, it } from "vitest";
import { documentProblem, MAX_FILE_BYTES } from "~/domain/validation/application";
import { makeJpeg, makePdf, makePng } from "../helpers/files";

/** The wizard's check of a chosen document: the server's rules, before the slot says anything. */
describe("documentProblem", () => {
  const chosen = (bytes: Uint8Array | string, name: string, type: string) => new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });

  it("accepts complete PDF, JPG and PNG files", async () => {
    expect(await documentProblem("Utility Bill", chosen(makePdf(2048), "bill.pdf", "application/pdf"))).toBeNull();
    expect(await documentProblem("ID Card (Front)", chosen(makeJpeg(3000), "front.jpeg", "image/jpeg"))).toBeNull();
    expect(await documentProblem("ID Card (Back)", chosen(makePng(24, 16), "back.png", ""))).toBeNull();
  });

  it("refuses a text file named .pdf, an empty file, a wrong extension and a file over 5 MB, naming the document and the rule", async () => {
    expect(await documentProblem("Bank Statement (Month 1)", chosen("just text\n", "statement.pdf", "application/pdf"))).toBe(
      "Bank Statement (Month 1): the file's content is not a complete PDF, JPG or PNG. File must be PDF, JPG, or PNG and under 5MB",
    );
    expect(await documentProblem("Utility Bill", chosen("", "bill.pdf", "application/pdf"))).toBe(
      "Utility Bill: the file is empty. File must be PDF, JPG, or PNG and under 5MB",
    );
    expect(await documentProblem("Utility Bill", chosen(makePng(24, 16), "bill.pdf", "application/pdf"))).toMatch(/^Utility Bill: the file name's extension/);
    expect(await documentProblem("Utility Bill", chosen(new Uint8Array(MAX_FILE_BYTES + 1), "bill.pdf", "application/pdf"))).toBe(
      "Utility Bill: the file is too large. File must be PDF, JPG, or PNG and under 5MB",
    );
    const withScript = Buffer.concat([makePdf(2048).subarray(0, 100), Buffer.from("<script>alert(1)</script>"), makePdf(2048).subarray(100)]);
    expect(await documentProblem("Utility Bill", chosen(withScript, "bill.pdf", "application/pdf"))).toMatch(/web page or script code/);
  });
});
