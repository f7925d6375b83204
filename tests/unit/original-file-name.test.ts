import { describe, expect, it } from "vitest";
import { MAX_ORIGINAL_FILE_NAME, originalFileName } from "~/domain/upload-rules";

describe("originalFileName: the borrower's name for a file, safe to show and to suggest on download", () => {
  it("keeps the name the borrower gave, spaces and accents included", () => {
    expect(originalFileName("Bank Statement – Chase Checking, March 2026 (final).pdf", "pdf", "bank_statement_1.pdf")).toBe(
      "Bank Statement – Chase Checking, March 2026 (final).pdf",
    );
    expect(originalFileName("Résumé.JPEG", "jpg", "x.jpg")).toBe("Résumé.JPEG");
  });

  it("drops any path, control characters and bidi overrides that could disguise the extension", () => {
    expect(originalFileName("C:\\Users\\me\\Desktop\\pay stub.pdf", "pdf", "f.pdf")).toBe("pay stub.pdf");
    expect(originalFileName("../../etc/passwd.pdf", "pdf", "f.pdf")).toBe("passwd.pdf");
    expect(originalFileName("stub\u0000\u001b[31m\u007f\u0085.pdf", "pdf", "f.pdf")).toBe("stub[31m.pdf");
    expect(originalFileName("invoice\u202Efdp.exe", "pdf", "f.pdf")).toBe("invoicefdp.exe.pdf");
    expect(originalFileName("tab\there\nnew line.png", "png", "f.png")).toBe("tab here new line.png");
  });

  it("always ends in the extension of what the content is", () => {
    expect(originalFileName("scan", "png", "f.png")).toBe("scan.png");
    expect(originalFileName("scan.pdf", "png", "f.png")).toBe("scan.pdf.png");
  });

  it("is cut to the limit with the extension kept; nothing left falls back to our name", () => {
    const long = `${"Very long statement name ".repeat(20)}.pdf`;
    const kept = originalFileName(long, "pdf", "f.pdf");
    expect([...kept].length).toBeLessThanOrEqual(MAX_ORIGINAL_FILE_NAME);
    expect(kept.endsWith(".pdf")).toBe(true);
    expect(kept.startsWith("Very long statement name")).toBe(true);
    expect(originalFileName("\u0000\u0001.pdf", "pdf", "bank_statement_1.pdf")).toBe("bank_statement_1.pdf");
    expect(originalFileName("   ", "pdf", "bank_statement_1.pdf")).toBe("bank_statement_1.pdf");
    expect(originalFileName("dir/", "pdf", "bank_statement_1.pdf")).toBe("bank_statement_1.pdf");
  });
});
