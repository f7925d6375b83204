import { expect } from "vitest";
import { AppError, isAppError } from "~/server/platform/http/app-error.server";

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

/**
 * The AppError `promise` rejects with, which must carry one of `codes` (the refusal's kind, as the
 * action's answer names it); fails the test when it resolves or rejects with anything else.
 */
export async function appErrorOf(promise: Promise<unknown>, ...codes: [string, ...string[]]): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toSatisfy((e) => codes.some((code) => isAppError(e, code)));
  return error as AppError;
}
