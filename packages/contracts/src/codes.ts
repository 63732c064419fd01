/** Envelope codes of SPEC.md §9 and API.md. */
export const CODE_OK = 0;
export const CODE_UNAUTHORIZED = 401;
export const CODE_FORBIDDEN = 403;
export const CODE_ERROR = -2;

/** SPEC.md §9 constants shared by both sides. */
export const REQUEST_TIMEOUT_MS = 600_000;
export const TOKEN_HEADER = 'Authorization';
export const DEFAULT_PLATFORM = 'dj';

/** Default and allowed page sizes (PRODUCT.md "Screens"). */
export const DEFAULT_PAGE_SIZE = 20;
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export interface FieldError {
  field: string;
  message: string;
}
