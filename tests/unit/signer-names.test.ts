import { describe, expect, it } from "vitest";
import { acceptedSignerNames, comparableName, nameToType, typedNameMatches, typedSignatureAsGiven } from "~/domain/signer-names";

const maria = { accountName: "Maria Elena Gonzalez", firstName: "Maria", middleInitial: "E", lastName: "Gonzalez" };

describe("the names a borrower may type to sign", () => {
  it("accepts the full name given at sign-up, whatever its case, spacing or punctuation", () => {
    for (const typed of ["Maria Elena Gonzalez", "maria elena gonzalez", "  MARIA   ELENA  GONZALEZ ", "Maria-Elena Gonzalez", "Maria Elena Gonzalez."]) {
      expect(typedNameMatches(typed, maria), typed).toBe(true);
    }
  });

  it("accepts the application's first and last name, with or without the middle initial", () => {
    for (const typed of ["Maria Gonzalez", "maria e gonzalez", "Maria E. Gonzalez", "MARIA E.GONZALEZ"]) expect(typedNameMatches(typed, maria), typed).toBe(true);
  });

  it("refuses other names, parts of a name, and an empty or punctuation-only name", () => {
    for (const typed of ["Maria", "Elena Gonzalez", "Mario Elena Gonzalez", "Maria Elena", "Gonzalez Maria", "", " . - ", "Maria Elena Gonzalez Jr"]) {
      expect(typedNameMatches(typed, maria), typed).toBe(false);
    }
  });

  it("treats apostrophes and hyphens as punctuation, but keeps letters in any script and accents", () => {
    const ann = { accountName: "Ann O'Neil-Barr", firstName: "Ann", lastName: "O'Neil-Barr" };
    expect(typedNameMatches("ann oneil barr", ann)).toBe(true);
    expect(typedNameMatches("Ann O’Neil Barr", ann)).toBe(true);
    const jose = { accountName: "José Núñez", firstName: "José", lastName: "Núñez" };
    expect(typedNameMatches("JOSÉ NÚÑEZ", jose)).toBe(true);
    expect(typedNameMatches("Jose Nunez", jose)).toBe(false);
    expect(comparableName("Zoë  Ʒ.")).toBe("zoëʒ");
  });

  it("works without a sign-up name (accounts made before names were asked for)", () => {
    const dana = { accountName: "", firstName: "Dana", middleInitial: "Q", lastName: "Whitfield" };
    expect(typedNameMatches("dana whitfield", dana)).toBe(true);
    expect(typedNameMatches("Dana Q. Whitfield", dana)).toBe(true);
    expect(typedNameMatches("Dan Whitfield", dana)).toBe(false);
    expect(nameToType(dana)).toBe("Dana Whitfield");
  });

  it("asks for the sign-up name first, and lists each accepted name once", () => {
    expect(nameToType(maria)).toBe("Maria Elena Gonzalez");
    expect(acceptedSignerNames(maria)).toEqual(["Maria Elena Gonzalez", "Maria Gonzalez", "Maria E. Gonzalez"]);
    expect(acceptedSignerNames({ accountName: "maria gonzalez", firstName: "Maria", lastName: "Gonzalez" })).toEqual(["maria gonzalez"]);
  });

  it("keeps the signature as typed, with runs of spaces made one", () => {
    expect(typedSignatureAsGiven("  maria   elena gonzalez ")).toBe("maria elena gonzalez");
  });
});
