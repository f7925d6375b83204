import { RATE_BOUNDS } from "~/domain/loan-math";

/** What makes an input an interest-rate input (percent, in our lending range), in the calculator and the wizard. */
export const RATE_INPUT = { type: "number", inputMode: "decimal", step: RATE_BOUNDS.step, min: RATE_BOUNDS.min, max: RATE_BOUNDS.max } as const;

export const RATE_HINT = `Range: ${RATE_BOUNDS.min}% - ${RATE_BOUNDS.max}%`;
