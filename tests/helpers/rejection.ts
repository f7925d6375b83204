import { expect } from "vitest";

/** The error `promise` rejects with; fails the test when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

/** The error `promise` rejects with, which must be a `type`; fails the test otherwise. */
export async function rejectionAs<T>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(type);
  return error as T;
}
