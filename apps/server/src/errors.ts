import { CODE_ERROR, CODE_FORBIDDEN, CODE_UNAUTHORIZED, type ErrorKey } from '@ads/contracts';

const codeOf: Partial<Record<ErrorKey, number>> = {
  UNAUTHORIZED: CODE_UNAUTHORIZED,
  SESSION_EXPIRED: CODE_UNAUTHORIZED,
  FORBIDDEN: CODE_FORBIDDEN,
  FORBIDDEN_SCOPE: CODE_FORBIDDEN,
  AD_COPY_TARGET_SCOPE: CODE_FORBIDDEN,
};

/** A failure we expect and can explain; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly code: number;
  /** What the answer's `data` carries instead of the field error (a refused publish: every issue). */
  data?: unknown;
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, unknown> = {},
    /** The input field the error is about: the answer then carries it in data.errors, so forms show it there. */
    readonly field?: string,
  ) {
    super(key);
    this.code = codeOf[key] ?? CODE_ERROR;
  }
}
