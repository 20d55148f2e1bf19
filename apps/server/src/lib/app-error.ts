import { type ErrorCode, errorCatalogue, type FieldError } from '@loyalty/contracts';

/** The one error type services throw; the error handler turns it into the `{status, message, code}` envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: FieldError[];

  constructor(code: ErrorCode, message?: string, details?: FieldError[]) {
    super(message ?? errorCatalogue[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.details = details;
  }
}
